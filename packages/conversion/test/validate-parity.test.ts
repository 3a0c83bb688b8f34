import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type ChainVersion,
  convertManifest,
  formatConversionError,
  V1ALPHA1,
  V1ALPHA2,
  V1BETA1,
  V1BETA2,
} from '../src/index.js';

/** convert refuses what `validate` refuses, and reads nested Lists as validate does (issue #12). */

const cluster = (version: string, metadata: string) =>
  `apiVersion: ${version}\nkind: Cluster\nmetadata:\n${metadata}`;
const V1ALPHA2_CLUSTER = 'cluster.x-k8s.io/v1alpha2';

function refused(text: string, to: ChainVersion) {
  const result = convertManifest(text, { to });
  if (E.isRight(result)) throw new Error(`expected a refusal, got:\n${result.right.text}`);
  return result.left.map(formatConversionError);
}

describe('convert refuses what validate refuses', () => {
  for (const [to, from] of [
    [V1ALPHA2, 'cluster.k8s.io/v1alpha1'],
    [V1ALPHA1, V1ALPHA2_CLUSTER],
  ] as const) {
    it(`a List whose items is not a list (to ${to})`, () => {
      const errors = refused(`apiVersion: v1\nkind: List\nitems:\n  a: ${JSON.stringify(from)}\n`, to);
      expect(errors).toEqual([expect.stringMatching(/^document 1 .*items: .*list/)]);
    });
    it(`a boolean name (to ${to})`, () => {
      expect(refused(cluster(from, '  name: true\n'), to)).toEqual([
        expect.stringMatching(/^document 1 .*metadata\.name: must be a string/),
      ]);
    });
    it(`a label that is not a string (to ${to})`, () => {
      expect(refused(cluster(from, '  name: c\n  labels:\n    a: 1\n'), to)).toEqual([
        expect.stringMatching(/^document 1 .*metadata\.labels\.a: must be a string/),
      ]);
    });
  }

  // The later versions go hop by hop (chain/convert.ts): each path refuses what the first does.
  for (const [to, from] of [
    [V1BETA2, V1BETA1],
    [V1ALPHA2, V1BETA1],
    [V1ALPHA1, V1BETA2],
    [V1BETA1, 'cluster.x-k8s.io/v1alpha3'],
  ] as const) {
    it(`YAML 1.1 booleans and numbers as name, namespace and labels (${from} to ${to})`, () => {
      const machine = `apiVersion: ${from}\nkind: Machine\nmetadata:\n  name: yes\n  namespace: 0755\nspec:\n  clusterName: c\n`;
      expect(refused(machine, to)).toEqual([
        expect.stringMatching(/^document 1 .*metadata\.name: must be a string, not true/),
      ]);
      const labelled = `apiVersion: ${from}\nkind: Machine\nmetadata:\n  name: m\n  labels: {version: 1.10, enabled: on}\nspec:\n  clusterName: c\n`;
      expect(refused(labelled, to)).toEqual([
        expect.stringMatching(/^document 1 .*metadata\.labels\.version: must be a string, not 1\.1/),
      ]);
    });
  }

  it('converts the objects of a List nested in a List, as validate checks them', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - ${cluster('cluster.k8s.io/v1alpha1', '      name: c\n').split('\n').join('\n    ')}\n`;
    const result = convertManifest(text, { to: V1ALPHA2 });
    if (E.isLeft(result)) throw new Error(result.left.map(formatConversionError).join('\n'));
    expect(result.right.documents).toEqual([
      expect.objectContaining({ apiVersion: V1ALPHA2_CLUSTER, kind: 'Cluster' }),
    ]);
  });
});
