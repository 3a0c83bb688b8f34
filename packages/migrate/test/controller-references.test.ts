import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from '@capi-kit/conversion';
import { readManifest } from '@capi-kit/core/manifest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { planMigration } from '../src/index.js';

// The API server refuses two controller references on one object, but the plan is a
// function of whatever inventory it is given: it refuses them itself, naming both paths.

function inventory(): JsonObject[] {
  const read = readManifest(
    readFileSync(join(import.meta.dirname, '../../../examples/aws-v1alpha1.yaml'), 'utf8'),
  );
  if (E.isLeft(read)) throw new Error('examples/aws-v1alpha1.yaml does not read');
  const objects = read.right.flatMap((d) => {
    const v = d.value as JsonObject & { items?: JsonObject[] };
    return Array.isArray(v.items) ? v.items : [v];
  });
  return objects.map((o, i) => ({
    ...o,
    metadata: {
      ...(o.metadata as JsonObject),
      namespace: 'team',
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    },
  }));
}

describe('planMigration and controller references', () => {
  it('refuses an object with two controller ownerReferences, naming both paths', () => {
    const objects = inventory();
    const cluster = objects.find((o) => o.kind === 'Cluster')!;
    const machine = objects.find((o) => o.kind === 'Machine')!;
    const name = String((machine.metadata as JsonObject).name);
    (machine.metadata as JsonObject).ownerReferences = [
      {
        apiVersion: 'cluster.k8s.io/v1alpha1',
        kind: 'Cluster',
        name: String((cluster.metadata as JsonObject).name),
        uid: String((cluster.metadata as JsonObject).uid),
        controller: true,
      },
      { apiVersion: 'example.com/v1', kind: 'Autoscaler', name: 'a', uid: 'u', controller: true },
    ];
    const planned = planMigration({ objects, secrets: [] }, [awsConversionPlugin]);
    expect(planned).toEqual(
      E.left({
        code: 'conversion',
        message: `Machine team/${name}: metadata.ownerReferences[0], metadata.ownerReferences[1]: 2 ownerReferences say controller: true; an object has at most one controller, and the API server would refuse the migrated object: remove all but one, then plan again`,
      }),
    );
    // One of them is fine.
    (machine.metadata as JsonObject).ownerReferences = [
      { apiVersion: 'example.com/v1', kind: 'Autoscaler', name: 'a', uid: 'u', controller: true },
    ];
    expect(E.isRight(planMigration({ objects, secrets: [] }, [awsConversionPlugin]))).toBe(true);
  });
});
