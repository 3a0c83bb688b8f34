import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import {
  CHAIN_VERSIONS,
  type ChainOptions,
  type ChainVersion,
  CONVERSION_DATA_ANNOTATION,
  convertTo,
  type Json,
  type JsonObject,
} from '../src/index.js';
import { v1alpha1 } from './support/arbitraries.js';
import { secretStore } from './support/secret-store.js';

// The round-trip properties (chain-roundtrip.property.test.ts) convert objects nobody touched
// in between. Stored objects are edited at whatever version a client reads them in, and the
// conversions after such an edit are where the stash stack can go wrong: a hop that writes a
// stash for the way back in the middle of a multi-hop conversion, or references that no
// longer name their object. Here, walks of conversions between random versions, each object
// edited at its version before the next conversion, must keep the lossless promise at every
// step: converting to any other version and back gives the object as it was (its stash
// annotation aside, which the edits change).

const RUNS = Number(process.env.CHAIN_EDIT_RUNS ?? 2_000);
const secrets = secretStore();
const options: ChainOptions = {
  plugins: [awsConversionPlugin, vsphereConversionPlugin],
  secretData: secrets.secretData,
};
const plain = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value));

/** Keys an edit may set: fields of some version (so some hop moves them), and others. */
const KEYS = [
  'failureDomain',
  'clusterName',
  'version',
  'nodeDrainTimeout',
  'minReadySeconds',
  'paused',
  'dataSecretName',
  'providerID',
  'phase',
  'replicas',
  'deletePolicy',
  'name',
  'namespace',
  'kind',
  'cluster.x-k8s.io/cluster-name',
  'cluster.x-k8s.io/control-plane',
  'extra',
];
const VALUES: readonly Json[] = ['eu-west-1a', 'v1.20.1', '10s', 'Random', 'x', '', 3, 0, true, false];

/** Every object in `value`, with the stash annotation's map left out (stash-security tests edit that). */
function containers(value: Json, out: JsonObject[] = [], inMetadata = false): JsonObject[] {
  if (value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const item of value) containers(item, out);
    return out;
  }
  out.push(value);
  for (const [key, child] of Object.entries(value)) {
    if (inMetadata && key === 'annotations') continue;
    containers(child, out, key === 'metadata');
  }
  return out;
}

/**
 * Sets one key of one container to a scalar, where the key is absent or holds a scalar; or
 * takes the infrastructure reference out of the machine (or cluster) spec. No other edit
 * removes a subtree.
 */
function edit(object: JsonObject, [where, key, value]: readonly [number, number, number]): void {
  // Half the edits go to the machine (or cluster) spec, where the fields that differ between
  // versions are; the others anywhere.
  const all = containers(object);
  const spec = machineSpecOf(object);
  if (key % (KEYS.length + 1) === KEYS.length) {
    if (spec !== undefined) delete spec.infrastructureRef;
    return;
  }
  const target = where % 2 === 0 && spec !== undefined ? spec : all[(where >> 1) % all.length]!;
  const name = KEYS[key % (KEYS.length + 1)]!;
  const current = target[name];
  if (current !== undefined && current !== null && typeof current === 'object') return;
  target[name] = VALUES[value % VALUES.length]!;
}

function withoutStash(object: JsonObject): JsonObject {
  const copy = plain(object);
  const metadata = copy.metadata as JsonObject | undefined;
  const annotations = metadata?.annotations as JsonObject | undefined;
  if (annotations !== undefined && annotations !== null) {
    delete annotations[CONVERSION_DATA_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete metadata!.annotations;
  }
  return copy;
}

/** The Machine's or Cluster's spec, or a MachineSet's or MachineDeployment's template's, when an object. */
function machineSpecOf(object: JsonObject): JsonObject | undefined {
  const own = object.kind === 'Machine' || object.kind === 'Cluster';
  const spec = object.spec as JsonObject | null | undefined;
  const found = own ? spec : (spec?.template as JsonObject | null | undefined)?.spec;
  return found !== null && typeof found === 'object' && !Array.isArray(found) ? found : undefined;
}

/** What the conversion reported losing on purpose (bootstrap data, references into another namespace). */
const lostOnPurpose = (warnings: readonly string[]) => warnings.some((w) => w.includes('is not kept'));

const step = fc.record({
  to: fc.constantFrom(...CHAIN_VERSIONS),
  edits: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 3 }),
});

describe('edited between conversions, every step still converts to any version and back', () => {
  for (const kind of ['Cluster', 'Machine', 'MachineSet', 'MachineDeployment'] as const) {
    it(`${kind}: walks of 4 conversions with edits`, () => {
      fc.assert(
        fc.property(
          v1alpha1[kind].map(plain),
          fc.array(step, { minLength: 4, maxLength: 4 }),
          (start, steps) => {
            let object = start;
            for (const { to, edits } of steps) {
              const at = object.apiVersion as ChainVersion;
              if (to === at) continue;
              const there = convertTo(structuredClone(object), to, options);
              if (E.isLeft(there)) return; // (an edit made it invalid: refused, as it should be)
              secrets.keep(there.right.generated);
              const back = convertTo(structuredClone(there.right.object), at, options);
              if (E.isLeft(back))
                throw new Error(`${at} → ${to} → back failed: ${JSON.stringify(back.left)}`);
              const warnings = there.right.reports.flatMap((r) => r.warnings);
              if (!lostOnPurpose(warnings))
                expect(withoutStash(back.right.object)).toStrictEqual(withoutStash(object));
              object = plain(there.right.object);
              for (const e of edits) edit(object, e);
            }
          },
        ),
        { numRuns: RUNS },
      );
    }, 600_000);
  }
});
