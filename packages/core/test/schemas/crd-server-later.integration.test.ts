import type { Agent } from 'node:https';
import { type ControlPlane, keepAliveAgent, restRequest, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laterObjects } from './support/crd-arbitraries.js';
import { buildOracles, laterKinds, loadLaterCrds } from './support/crd-oracle.js';
import { type Case, cases } from './support/mutations.js';
import { servedLaterCrds } from './support/served-later-crds.js';
import { compareWithServer, mapConcurrently, type ServedKind } from './support/server-fidelity.js';

// The API-server half of the fidelity method for v1alpha3, v1alpha4, v1beta1 and v1beta2, as
// crd-server.integration.test.ts does for the first two versions (see support/server-fidelity.ts):
// for each typed kind and version, RUNS generated cases (valid objects from the CRD schema and
// single mutations of them, the generators of crd-fidelity-<version>.test.ts), each sent as a
// dry-run create, lenient and strict, and a dry-run status update when it has a status. The
// server serves each version with its own schema (support/served-later-crds.ts). Those CRDs
// replace the cluster.x-k8s.io CRDs of the run's shared control plane, so this file starts a
// control plane of its own.

const RUNS = Number(process.env.SERVER_FIDELITY_RUNS ?? 500);
/** Cases in flight at once: enough to keep kube-apiserver busy, few enough for a 2-core machine. */
const CONCURRENCY = Number(process.env.SERVER_FIDELITY_CONCURRENCY ?? 6);
const SEED = 20261201;
const namespace = 'default';

const crds = loadLaterCrds();
const oracles = buildOracles(undefined, crds, { lists: false });
const arbitraries = laterObjects(crds);
const pluralOf = Object.fromEntries(Object.entries(laterKinds).map(([plural, kind]) => [kind, plural]));

describe.skipIf(noControlPlane('private-local'))('CRD server fidelity of the later versions', () => {
  let plane: ControlPlane;
  let agent: Agent;
  const served = new Map<string, ServedKind>();

  beforeAll(async () => {
    plane = await startControlPlane({ backend: 'local', log: () => {} });
    await plane.installCRDs(servedLaterCrds());
    agent = await keepAliveAgent(plane.kubeConfig, CONCURRENCY);
    // One stored object per kind and version receives the dry-run status updates. Its spec is
    // a generated valid one where the version requires a spec, none otherwise: it is stored
    // as v1beta2 and pruned to that schema when read, which leaves nothing to invalidate.
    await mapConcurrently(oracles, 4, async (oracle) => {
      const key = `${oracle.version}/${oracle.kind}`;
      const collection = `/apis/${oracle.apiVersion}/namespaces/${namespace}/${pluralOf[oracle.kind]}`;
      const schema = crds.find((crd) => crd.version === oracle.version && crd.kind === oracle.kind)!.schema;
      const requiresSpec = ((schema.required as string[] | undefined) ?? []).includes('spec');
      const [valid] = fc.sample(arbitraries[key]!, { numRuns: 1, seed: SEED });
      const body = {
        apiVersion: oracle.apiVersion,
        kind: oracle.kind,
        metadata: { name: `status-base-${oracle.version}` },
        ...(requiresSpec ? { spec: valid!.spec } : {}),
      };
      const res = await restRequest(plane.kubeConfig, 'POST', collection, body);
      expect(res.status, `create ${key} status-base: ${JSON.stringify(res.body)}`).toBe(201);
      const created = res.body as { metadata: { name: string; resourceVersion: string } };
      served.set(key, {
        kubeConfig: plane.kubeConfig,
        agent,
        collection,
        namespace,
        hasStatus: true,
        base: { name: created.metadata.name, resourceVersion: created.metadata.resourceVersion },
      });
    });
  }, 180_000);

  afterAll(async () => {
    agent?.destroy();
    await plane?.stop();
  });

  it.each(oracles.map((o) => [`${o.version} ${o.kind}`, o] as const))(
    '%s: agrees with kube-apiserver on generated cases',
    { timeout: 600_000 },
    async (_label, oracle) => {
      const key = `${oracle.version}/${oracle.kind}`;
      // A create needs a valid name and the request's namespace; the rest of metadata is generated.
      const named = arbitraries[key]!.map((o) => ({ ...o, metadata: { name: 'probe', namespace } }));
      const sample: Case[] = fc.sample(cases(named), { numRuns: RUNS, seed: SEED });
      const tally = await compareWithServer(oracle, served.get(key)!, sample, CONCURRENCY);
      console.info(
        `${oracle.version} ${oracle.kind}: ${sample.length} cases, ${tally.accepted} accepted (lenient), documented divergences ${JSON.stringify(Object.fromEntries(tally.divergences))}`,
      );
      expect(sample.length).toBeGreaterThanOrEqual(RUNS);
      expect(tally.undocumented, tally.undocumented.slice(0, 5).join('\n')).toEqual([]);
      expect(tally.accepted).toBeGreaterThan(0);
      expect(tally.accepted).toBeLessThan(sample.length);
    },
  );
});
