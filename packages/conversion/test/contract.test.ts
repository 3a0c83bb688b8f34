import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type ContractCrd,
  compareKubeAwareVersions,
  contractVersionFromLabels,
  convertTo,
  referenceApiVersionsFromCrds,
  V1BETA1,
  V1BETA2,
} from '../src/index.js';

// The v1beta2 → v1beta1 reference apiVersion from CRD contract labels, by upstream's rule
// (contract.GetAPIVersion, v1.14): contracts v1beta2 then v1beta1, the first label present
// and non-empty, its newest version in Kubernetes' version order.

describe('compareKubeAwareVersions (apimachinery CompareKubeAwareVersionStrings)', () => {
  it('orders GA > beta > alpha, then major, then minor; other strings below, reverse lexical', () => {
    const shuffled = ['v1alpha1', 'foo', 'v2', 'v1beta2', 'v1', 'v10beta1', 'v2alpha3', 'bar', 'v1beta10'];
    expect([...shuffled].sort(compareKubeAwareVersions)).toEqual([
      'foo',
      'bar',
      'v1alpha1',
      'v2alpha3',
      'v1beta2',
      'v1beta10',
      'v10beta1',
      'v1',
      'v2',
    ]);
  });
  it('treats a version beyond a safe integer as not a Kubernetes version', () => {
    expect(compareKubeAwareVersions('v99999999999999999999', 'v1alpha1')).toBeLessThan(0);
  });
});

describe('contractVersionFromLabels', () => {
  const g = 'cluster.x-k8s.io';
  it.each([
    [
      'the v1beta2 label wins over v1beta1',
      { [`${g}/v1beta2`]: 'v1beta2', [`${g}/v1beta1`]: 'v1beta1' },
      'v1beta2',
    ],
    [
      'the newest of a joined list, in version order',
      { [`${g}/v1beta2`]: 'v1beta10_v1beta2_v1alpha4' },
      'v1beta10',
    ],
    [
      'v1beta1 when v1beta2 is absent (a provider of the older contract)',
      { [`${g}/v1beta1`]: 'v1alpha4_v1beta1' },
      'v1beta1',
    ],
    ['an empty v1beta2 label is skipped', { [`${g}/v1beta2`]: '', [`${g}/v1beta1`]: 'v1beta1' }, 'v1beta1'],
    ['a GA version beats a beta', { [`${g}/v1beta2`]: 'v1beta3_v1' }, 'v1'],
  ])('%s', (_what, labels, version) => {
    expect(contractVersionFromLabels(labels)?.version).toBe(version);
  });
  it('gives nothing without a compatible label (v1alpha4 and foreign groups do not count)', () => {
    expect(
      contractVersionFromLabels({ [`${g}/v1alpha4`]: 'v1alpha4', 'example.com/v1beta2': 'v1beta2' }),
    ).toBe(undefined);
    expect(contractVersionFromLabels(undefined)).toBe(undefined);
  });
  // A label is input: what it says is written into objects as `<group>/<version>`.
  it.each([
    ['a value with a slash is not a version', { [`${g}/v1beta2`]: 'x/y' }, undefined],
    [
      'path tricks are skipped, the valid version of the list is kept',
      { [`${g}/v1beta2`]: 'v1beta1_v1/../v2_v9/x' },
      'v1beta1',
    ],
    [
      'upper case, spaces and a leading digit are skipped',
      { [`${g}/v1beta2`]: 'V1_v 2_1v_v1beta2' },
      'v1beta2',
    ],
    [
      'a longer name than a CRD version may have is skipped',
      { [`${g}/v1beta2`]: `v${'1'.repeat(63)}_v1beta1` },
      'v1beta1',
    ],
    [
      'a v1beta2 label with no valid version counts as empty',
      { [`${g}/v1beta2`]: '_/_', [`${g}/v1beta1`]: 'v1beta1' },
      'v1beta1',
    ],
  ])('%s', (_what, labels, version) => {
    expect(contractVersionFromLabels(labels)?.version).toBe(version);
  });
  it('reads a long hostile label in linear time and keeps only versions', () => {
    const value = Array.from({ length: 50_000 }, (_, i) => (i % 2 === 0 ? `v${i}/x` : 'a-')).join('_');
    expect(contractVersionFromLabels({ [`${g}/v1beta2`]: `${value}_v1` })?.version).toBe('v1');
  });
  it('for the v1beta1 contract reads only the v1beta1 label', () => {
    expect(
      contractVersionFromLabels({ [`${g}/v1beta2`]: 'v1beta2', [`${g}/v1beta1`]: 'v1beta1' }, 'v1beta1'),
    ).toEqual({
      contract: 'v1beta1',
      version: 'v1beta1',
    });
  });
});

const crd = (name: string, group: string, kind: string, labels: Record<string, string>): ContractCrd => ({
  metadata: { name, labels },
  spec: { group, names: { kind, plural: name.split('.')[0]! } },
});

describe('referenceApiVersionsFromCrds', () => {
  const lookup = referenceApiVersionsFromCrds([
    crd(
      'dockermachines.infrastructure.cluster.x-k8s.io',
      'infrastructure.cluster.x-k8s.io',
      'DockerMachine',
      {
        'cluster.x-k8s.io/v1beta1': 'v1beta1',
        'cluster.x-k8s.io/v1beta2': 'v1beta2',
      },
    ),
    crd('oldmachines.infra.example.com', 'infra.example.com', 'OldMachine', {
      'cluster.x-k8s.io/v1beta1': 'v1alpha3_v1beta1',
    }),
    crd('unlabelled.infra.example.com', 'infra.example.com', 'Unlabelled', {}),
    // Two CRDs of one group and kind: the one named as upstream computes the name wins.
    crd('twins.infra.example.com', 'infra.example.com', 'Twin', { 'cluster.x-k8s.io/v1beta2': 'v1beta2' }),
    crd('alttwins.infra.example.com', 'infra.example.com', 'Twin', { 'cluster.x-k8s.io/v1beta2': 'v9' }),
  ]);
  it('answers by group and kind, with the group of the reference', () => {
    expect(lookup('infrastructure.cluster.x-k8s.io', 'DockerMachine')).toBe(
      'infrastructure.cluster.x-k8s.io/v1beta2',
    );
    expect(lookup('infra.example.com', 'OldMachine')).toBe('infra.example.com/v1beta1');
    expect(lookup('infra.example.com', 'Twin')).toBe('infra.example.com/v1beta2');
  });
  it('answers nothing for an unknown group or kind, or a CRD without contract labels', () => {
    expect(lookup('infra.example.com', 'DockerMachine')).toBe(undefined);
    expect(lookup('infrastructure.cluster.x-k8s.io', 'Nope')).toBe(undefined);
    expect(lookup('infra.example.com', 'Unlabelled')).toBe(undefined);
    expect(lookup('infra.example.com', 'constructor')).toBe(undefined);
  });

  it('never answers with a version a hostile label made up; splits kind and group apart', () => {
    const hostile = referenceApiVersionsFromCrds([
      crd('evils.infra.example.com', 'infra.example.com', 'Evil', { 'cluster.x-k8s.io/v1beta2': 'x/y' }),
      crd('a.b.example.com', 'b.example.com', 'A.c', { 'cluster.x-k8s.io/v1beta2': 'v1' }),
    ]);
    expect(hostile('infra.example.com', 'Evil')).toBe(undefined);
    expect(hostile('b.example.com', 'A.c')).toBe('b.example.com/v1');
    expect(hostile('c.b.example.com', 'A')).toBe(undefined);
  });

  it('skips what is no CRD: null in the list, null labels, metadata or names (they threw a TypeError)', () => {
    const odd = referenceApiVersionsFromCrds([
      null,
      { metadata: { name: 'ks.g', labels: null }, spec: { group: 'g', names: { kind: 'K' } } },
      { metadata: null, spec: { group: 'g', names: { kind: 'M' } } },
      { spec: { group: 'g', names: null } },
      { spec: null },
      crd('ns.g', 'g', 'N', { 'cluster.x-k8s.io/v1beta2': 'v2' }),
    ] as unknown as ContractCrd[]);
    expect([odd('g', 'K'), odd('g', 'M'), odd('g', 'N')]).toEqual([undefined, undefined, 'g/v2']);
    expect(contractVersionFromLabels(null as never)).toBe(undefined);
  });

  it('fills a v1beta2 Machine’s references going down; a stash still wins over the lookup', () => {
    const machine = {
      apiVersion: V1BETA2,
      kind: 'Machine',
      metadata: { name: 'm', namespace: 'ns' },
      spec: {
        clusterName: 'c1',
        bootstrap: { configRef: { apiGroup: 'bootstrap.example.com', kind: 'Config', name: 'b' } },
        infrastructureRef: { apiGroup: 'infra.example.com', kind: 'OldMachine', name: 'm' },
      },
    };
    const down = convertTo(machine, V1BETA1, { referenceApiVersion: lookup });
    if (E.isLeft(down)) throw new Error(down.left.message);
    const spec = down.right.object.spec as Record<string, Record<string, unknown>>;
    expect(spec.infrastructureRef).toEqual({
      apiVersion: 'infra.example.com/v1beta1',
      kind: 'OldMachine',
      name: 'm',
      namespace: 'ns',
    });
    expect(spec.bootstrap).toEqual({ configRef: { kind: 'Config', name: 'b', namespace: 'ns' } });
    expect(down.right.reports.flatMap((r) => r.warnings).join('\n')).toMatch(
      /configRef: no apiVersion for bootstrap\.example\.com Config \(no conversion data, and the contract lookup knows no CRD/,
    );

    // A v1beta1 object up and back: its own apiVersion returns from the stash, not the lookup's.
    const v1beta1 = {
      ...down.right.object,
      spec: {
        ...spec,
        infrastructureRef: { ...spec.infrastructureRef, apiVersion: 'infra.example.com/v1alpha3' },
      },
    };
    const up = convertTo(v1beta1, V1BETA2);
    if (E.isLeft(up)) throw new Error(up.left.message);
    const back = convertTo(up.right.object, V1BETA1, { referenceApiVersion: lookup });
    if (E.isLeft(back)) throw new Error(back.left.message);
    expect(
      (back.right.object.spec as Record<string, Record<string, unknown>>).infrastructureRef?.apiVersion,
    ).toBe('infra.example.com/v1alpha3');
  });
});
