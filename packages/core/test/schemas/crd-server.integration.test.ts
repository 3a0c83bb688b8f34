import type { Agent } from 'node:https';
import { keepAliveAgent, restRequest } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../src/index.js';
import { validObjects } from './support/arbitraries.js';
import { buildOracles, crdDirectory } from './support/crd-oracle.js';
import { type Case, cases } from './support/mutations.js';
import { compareWithServer, type ServedKind } from './support/server-fidelity.js';

// The codecs against a real kube-apiserver with the real CRDs of v1alpha1 and v1alpha2
// installed (v1beta1 manifests, converted to v1 by envtest), on the run's shared control plane:
// RUNS generated cases per kind, each a dry-run create (and status update), strict and lenient
// (see support/server-fidelity.ts for the method and the two excuses a disagreement may have:
// a documented refinement the codec follows exactly, support/crd-oracle.ts, or a null the
// server drops). The served CRDs are structural (v1alpha2 as written, v1alpha1 after envtest's
// conversion to apiextensions v1).

const RUNS = Number(process.env.SERVER_FIDELITY_RUNS ?? 500);
const CONCURRENCY = Number(process.env.SERVER_FIDELITY_CONCURRENCY ?? 6);
const SEED = 20261130;

const env = useControlPlane();
const oracles = buildOracles(undefined, undefined, { lists: false });
const arbitraries = validObjects();

function plural(kind: string): string {
  return `${kind.toLowerCase()}${kind.endsWith('s') ? 'es' : 's'}`;
}

/** A minimal valid object of each kind, stored once to receive dry-run status updates. */
const baseSpecs: Record<string, Record<string, unknown>> = {
  'v1alpha1/Cluster': {
    spec: {
      clusterNetwork: {
        services: { cidrBlocks: [] },
        pods: { cidrBlocks: [] },
        serviceDomain: 'cluster.local',
      },
    },
  },
  'v1alpha1/Machine': { spec: { providerSpec: {} } },
  'v1alpha1/MachineSet': { spec: { selector: {} } },
  'v1alpha1/MachineDeployment': { spec: { selector: {}, template: {} } },
  'v1alpha1/MachineClass': { providerSpec: {} },
  'v1alpha2/Cluster': { spec: {} },
  'v1alpha2/Machine': { spec: { bootstrap: {}, infrastructureRef: {} } },
  'v1alpha2/MachineSet': { spec: { selector: {} } },
  'v1alpha2/MachineDeployment': { spec: { selector: {}, template: {} } },
};

describe.skipIf(noControlPlane()).each(oracles.map((o) => [`${o.version} ${o.kind}`, o] as const))(
  'CRD server fidelity: %s',
  (_label, oracle) => {
    let served: ServedKind;
    let agent: Agent;

    beforeAll(async () => {
      await env.installCRDs(crdDirectory);
      agent = await keepAliveAgent(env.kubeConfig, CONCURRENCY);
      const collection = `/apis/${oracle.apiVersion}/namespaces/${env.namespace}/${plural(oracle.kind)}`;
      const res = await restRequest(env.kubeConfig, 'POST', collection, {
        apiVersion: oracle.apiVersion,
        kind: oracle.kind,
        metadata: { name: 'status-base' },
        ...baseSpecs[`${oracle.version}/${oracle.kind}`],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const { metadata } = res.body as { metadata: { name: string; resourceVersion: string } };
      served = {
        kubeConfig: env.kubeConfig,
        agent,
        collection,
        namespace: env.namespace,
        hasStatus: oracle.kind !== 'MachineClass',
        base: { name: metadata.name, resourceVersion: metadata.resourceVersion },
      };
    });

    afterAll(() => agent?.destroy());

    it(`agrees with kube-apiserver on ${RUNS} generated cases`, { timeout: 900_000 }, async () => {
      // A create needs a valid name and the request's namespace; the rest of metadata is generated.
      const named = arbitraries[`${oracle.version}/${oracle.kind}`]!.map((o) => ({
        ...o,
        metadata: { name: 'probe', namespace: env.namespace },
      }));
      const sample: Case[] = fc.sample(cases(named), { numRuns: RUNS, seed: SEED });
      const tally = await compareWithServer(oracle, served, sample, CONCURRENCY);
      console.info(
        `${oracle.version} ${oracle.kind}: ${sample.length} cases, ${tally.accepted} accepted (lenient), documented divergences ${JSON.stringify(Object.fromEntries(tally.divergences))}`,
      );
      expect(tally.undocumented, tally.undocumented.slice(0, 5).join('\n')).toEqual([]);
      expect(tally.accepted).toBeGreaterThan(0);
      expect(tally.accepted).toBeLessThan(sample.length);
    });
  },
);

describe.skipIf(noControlPlane())('metadata.labels and annotations: null, on the same server', () => {
  beforeAll(() => env.installCRDs(crdDirectory));

  // YAML's `labels:` with nothing after it. kube-apiserver reads ObjectMeta with Go's JSON
  // decoder, which takes a null map as empty: the create succeeds, so decode must not refuse it.
  it.each([
    ['cluster.k8s.io/v1alpha1', baseSpecs['v1alpha1/Machine']],
    ['cluster.x-k8s.io/v1alpha2', baseSpecs['v1alpha2/Machine']],
  ])('%s Machine: the server creates it, and decode takes it', async (apiVersion, body) => {
    const object = {
      apiVersion,
      kind: 'Machine',
      metadata: { name: 'null-maps', namespace: env.namespace, labels: null, annotations: null },
      ...body,
    };
    const collection = `/apis/${apiVersion}/namespaces/${env.namespace}/machines`;
    const res = await restRequest(env.kubeConfig, 'POST', `${collection}?dryRun=All`, object);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const decoded = decode(object, { strict: true });
    expect(decoded._tag === 'Right' ? [] : decoded.left).toEqual([]);
    // A map of something else than strings the server refuses, and decode too.
    const wrong = { ...object, metadata: { ...object.metadata, labels: { a: 1 } } };
    const refused = await restRequest(env.kubeConfig, 'POST', `${collection}?dryRun=All`, wrong);
    expect(refused.status).toBe(400);
    expect(decode(wrong)._tag).toBe('Left');
  });
});
