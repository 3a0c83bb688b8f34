import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { ApiException, CustomObjectsApi } from '@kubernetes/client-node';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeWith, defaultRegistry } from '../../src/index.js';
import { validObjects } from './support/arbitraries.js';
import {
  buildOracles,
  crdDirectory,
  type RefinementRule,
  refinementsCovering,
} from './support/crd-oracle.js';
import { type Case, cases } from './support/mutations.js';

// The codecs against a real kube-apiserver with the real CRDs installed (v1beta1 manifests,
// converted to v1 by envtest). Each generated case (a valid object or one mutation of it) is
// sent as a server-side dry-run create, lenient (fieldValidation=Ignore: unknown fields are
// pruned or kept) and strict (fieldValidation=Strict: unknown fields are errors). With a
// status subresource the server ignores `status` on create, so when the create is accepted
// and the object has a status, the status is also sent as a dry-run status update of a
// stored object. The server's verdict must equal the codec's, except under a documented
// refinement (see support/crd-oracle.ts), as in the ajv fidelity test, plus one rule only a
// server shows:
//   server-prunes-null: the served CRDs are structural (v1alpha2 as written, v1alpha1 after
//   envtest's conversion to apiextensions v1), and kube-apiserver drops a `null` at a field
//   whose schema is not nullable instead of rejecting it (the stored object lacks the field). The codec rejects such a null, as the CRD schema does: Go never writes one there,
//   and the decoded value would not be what the server stores.

const RUNS = Number(process.env.SERVER_FIDELITY_RUNS ?? 500);
const SEED = 20261130;

const env = useControlPlane();
const oracles = buildOracles().filter((o) => !o.kind.endsWith('List'));
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

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);
}

type Verdict = { accepted: true } | { accepted: false; status: number; message: string };

async function answer(request: () => Promise<unknown>): Promise<Verdict> {
  try {
    await request();
    return { accepted: true };
  } catch (error) {
    if (error instanceof ApiException && (error.code === 400 || error.code === 422)) {
      const body = typeof error.body === 'string' ? error.body : JSON.stringify(error.body);
      return { accepted: false, status: error.code, message: body.slice(0, 400) };
    }
    throw error;
  }
}

describe.skipIf(noControlPlane()).each(oracles.map((o) => [`${o.version} ${o.kind}`, o] as const))(
  'CRD server fidelity: %s',
  (_label, oracle) => {
    const [group, version] = oracle.apiVersion.split('/') as [string, string];
    const resource = plural(oracle.kind);
    const hasStatus = oracle.kind !== 'MachineClass';
    let api: CustomObjectsApi;
    let base: Record<string, unknown> & { metadata: Record<string, unknown> };

    beforeAll(async () => {
      await env.installCRDs(crdDirectory);
      api = env.kubeConfig.makeApiClient(CustomObjectsApi);
      base = (await api.createNamespacedCustomObject({
        group,
        version,
        namespace: env.namespace,
        plural: resource,
        body: {
          apiVersion: oracle.apiVersion,
          kind: oracle.kind,
          metadata: { name: 'status-base' },
          ...baseSpecs[`${oracle.version}/${oracle.kind}`],
        },
      })) as typeof base;
    });

    async function serverVerdict(value: Record<string, unknown>, fieldValidation: 'Ignore' | 'Strict') {
      const created = await answer(() =>
        api.createNamespacedCustomObject({
          group,
          version,
          namespace: env.namespace,
          plural: resource,
          body: value,
          dryRun: 'All',
          fieldValidation,
        }),
      );
      if (!created.accepted || !hasStatus || value.status === undefined) return created;
      const metadata = {
        name: base.metadata.name,
        namespace: env.namespace,
        resourceVersion: base.metadata.resourceVersion,
      };
      return answer(() =>
        api.replaceNamespacedCustomObjectStatus({
          group,
          version,
          namespace: env.namespace,
          plural: resource,
          name: String(base.metadata.name),
          body: { ...value, metadata },
          dryRun: 'All',
          fieldValidation,
        }),
      );
    }

    it(`agrees with kube-apiserver on ${RUNS} generated cases`, { timeout: 900_000 }, async () => {
      const codec = defaultRegistry.lookup(oracle.apiVersion, oracle.kind)!;
      // A create needs a valid name and the request's namespace; the rest of metadata is generated.
      const named = arbitraries[`${oracle.version}/${oracle.kind}`]!.map((o) => ({
        ...o,
        metadata: { name: 'probe', namespace: env.namespace },
      }));
      const sample: Case[] = fc.sample(cases(named), { numRuns: RUNS, seed: SEED });
      const divergences = new Map<RefinementRule | 'server-prunes-null', number>();
      const undocumented: string[] = [];
      let accepted = 0;
      for (const c of sample) {
        for (const strict of [false, true]) {
          const server = await serverVerdict(c.value, strict ? 'Strict' : 'Ignore');
          const mine = E.isRight(decodeWith(codec, c.value, { strict }));
          if (!strict && server.accepted) accepted += 1;
          if (mine === server.accepted) continue;
          const rules = refinementsCovering(oracle, c.path).filter(
            (r) => strict || r.rule !== 'strict-unknown',
          );
          if (server.accepted && valueAt(c.value, c.path) === null) {
            divergences.set('server-prunes-null', (divergences.get('server-prunes-null') ?? 0) + 1);
          } else if (rules.length === 0) {
            undocumented.push(
              JSON.stringify({ strict, mutation: c.kind, path: c.path, codec: mine, server, value: c.value }),
            );
          } else {
            divergences.set(rules[0]!.rule, (divergences.get(rules[0]!.rule) ?? 0) + 1);
          }
        }
      }
      console.info(
        `${oracle.version} ${oracle.kind}: ${sample.length} cases, ${accepted} accepted (lenient), documented divergences ${JSON.stringify(Object.fromEntries(divergences))}`,
      );
      expect(undocumented, undocumented.slice(0, 5).join('\n')).toEqual([]);
      expect(accepted).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(sample.length);
    });
  },
);
