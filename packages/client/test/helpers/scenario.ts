import { readFileSync } from 'node:fs';
import { NodeLeaseClient } from '@capi-kit/lease';
import { CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type * as E from 'fp-ts/lib/Either.js';
import { type CapiClient, connect } from '../../src/index.js';
import { unwrap } from './fixtures.js';

// A management cluster with one v1alpha2 Cluster (`prod`: MD → MS → 3 Machines, a
// kubeconfig Secret) and one v1alpha1 Cluster (`legacy`: MS → Machine linked only by
// labels, no Secret), and a workload cluster with Nodes and a maintenance lease.

export const ids = {
  joined: 'aws:///us-east-1a/i-0aaaaaaaaaaaaaaaa',
  /** The same instance as `joined`, spelt without the zone, as a Node may carry it. */
  joinedRespelled: 'aws:////i-0aaaaaaaaaaaaaaaa',
  lonelyMachine: 'aws:///us-east-1a/i-0bbbbbbbbbbbbbbbb',
  lonelyNode: 'aws:///us-east-1a/i-0ccccccccccccccc9',
};

/** Creates `body` through the typed client of its version and kind. */
export async function create(
  client: CapiClient,
  apiVersion: string,
  kind: string,
  body: Record<string, unknown>,
) {
  const typed = unwrap(client.resource(apiVersion as never, kind as never)) as unknown as {
    create(o: unknown): Promise<E.Either<unknown, { metadata: { uid: string } }>>;
    patchStatus(ns: string, name: string, p: unknown): Promise<E.Either<unknown, unknown>>;
  };
  return { created: unwrap(await typed.create(body)), typed };
}

export const owner = (kind: string, name: string, uid: string, apiVersion = 'cluster.x-k8s.io/v1alpha2') => [
  { apiVersion, kind, name, uid, controller: true },
];

/**
 * Builds the scenario in `namespace`; the workload kubeconfig goes into `prod-kubeconfig`.
 * `providerIDs` replaces `ids` for a test whose reader sees every namespace of the shared
 * control plane (the autoscaler): other files build the scenario there too, and the same
 * instance in two namespaces is an ambiguous join.
 */
export async function buildScenario(
  management: KubeConfig,
  workload: { kubeConfig: KubeConfig; kubeconfigPath: string },
  namespace: string,
  providerIDs: typeof ids = ids,
) {
  const client = unwrap(await connect(management));
  const v2 = 'cluster.x-k8s.io/v1alpha2';
  const meta = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    namespace,
    labels: { 'cluster.x-k8s.io/cluster-name': 'prod' },
    ...extra,
  });
  await create(client, v2, 'Cluster', {
    apiVersion: v2,
    kind: 'Cluster',
    metadata: { name: 'prod', namespace },
    spec: {},
  });
  // The MachineDeployment and its MachineSet share one spec: 3 replicas of pool `a`.
  const poolSpec = {
    replicas: 3,
    selector: { matchLabels: { pool: 'a' } },
    template: {
      metadata: { labels: { pool: 'a' } },
      spec: {
        bootstrap: { data: 'eA==' },
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
          kind: 'AWSMachineTemplate',
          name: 'a',
        },
      },
    },
  };
  const md = await create(client, v2, 'MachineDeployment', {
    apiVersion: v2,
    kind: 'MachineDeployment',
    metadata: meta('prod-md'),
    spec: poolSpec,
  });
  const ms = await create(client, v2, 'MachineSet', {
    apiVersion: v2,
    kind: 'MachineSet',
    metadata: meta('prod-ms', {
      ownerReferences: owner('MachineDeployment', 'prod-md', md.created.metadata.uid),
    }),
    spec: poolSpec,
  });
  const machine = (name: string, providerID?: string) => ({
    apiVersion: v2,
    kind: 'Machine',
    metadata: meta(name, { ownerReferences: owner('MachineSet', 'prod-ms', ms.created.metadata.uid) }),
    spec: {
      bootstrap: { data: 'eA==' },
      infrastructureRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2', kind: 'AWSMachine', name },
      ...(providerID === undefined ? {} : { providerID }),
    },
  });
  await create(client, v2, 'Machine', machine('prod-m-0', providerIDs.joined));
  await create(client, v2, 'Machine', machine('prod-m-1', providerIDs.lonelyMachine));
  const failed = await create(client, v2, 'Machine', machine('prod-m-2'));
  unwrap(
    await failed.typed.patchStatus(namespace, 'prod-m-2', {
      type: 'merge',
      patch: { status: { errorReason: 'CreateError', errorMessage: 'quota \u001b[31mexceeded' } },
    }),
  );

  // v1alpha1: a MachineSet and a Machine tied by labels only (as after a pivot).
  const v1 = 'cluster.k8s.io/v1alpha1';
  const legacyLabels = { 'cluster.k8s.io/cluster-name': 'legacy', set: 'workers' };
  await create(client, v1, 'Cluster', {
    apiVersion: v1,
    kind: 'Cluster',
    metadata: { name: 'legacy', namespace },
    spec: {
      clusterNetwork: {
        services: { cidrBlocks: ['10.96.0.0/12'] },
        pods: { cidrBlocks: ['192.168.0.0/16'] },
        serviceDomain: 'cluster.local',
      },
    },
  });
  await create(client, v1, 'MachineSet', {
    apiVersion: v1,
    kind: 'MachineSet',
    metadata: { name: 'legacy-ms', namespace, labels: { 'cluster.k8s.io/cluster-name': 'legacy' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { set: 'workers' } },
      template: { metadata: { labels: legacyLabels }, spec: { providerSpec: {} } },
    },
  });
  const legacyMachine = await create(client, v1, 'Machine', {
    apiVersion: v1,
    kind: 'Machine',
    metadata: { name: 'legacy-m-0', namespace, labels: legacyLabels },
    spec: { providerSpec: {}, versions: { kubelet: 'v1.14.4' } },
  });
  unwrap(
    await legacyMachine.typed.patchStatus(namespace, 'legacy-m-0', {
      type: 'merge',
      patch: { status: { phase: 'Running' } },
    }),
  );

  // The workload cluster's kubeconfig, as Cluster API stores it.
  const core = management.makeApiClient(CoreV1Api);
  await core.createNamespacedSecret({
    namespace,
    body: {
      metadata: { name: 'prod-kubeconfig', namespace },
      data: { value: Buffer.from(readFileSync(workload.kubeconfigPath, 'utf8')).toString('base64') },
    },
  });

  // The workload cluster: a Node for prod-m-0 (respelled ID, Ready), one without a Machine.
  const nodes = workload.kubeConfig.makeApiClient(CoreV1Api);
  for (const [name, providerID, ready] of [
    [`ip-10-0-0-1-${namespace}`, providerIDs.joinedRespelled, 'True'],
    [`ip-10-0-0-9-${namespace}`, providerIDs.lonelyNode, 'False'],
  ] as const) {
    const existing = await nodes.readNode({ name }).catch(() => undefined);
    if (existing === undefined)
      await nodes.createNode({ body: { metadata: { name }, spec: { providerID } } });
    await nodes.patchNodeStatus(
      {
        name,
        body: {
          status: {
            conditions: [{ type: 'Ready', status: ready, reason: 'Test', message: 'set by the test' }],
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }
  const leases = new NodeLeaseClient({
    kubeConfig: workload.kubeConfig,
    holderIdentity: 'reboot-agent/ops-1',
    ensureNamespace: true,
    timing: { leaseDurationSeconds: 600 },
  });
  const acquired = await leases.tryAcquire(`ip-10-0-0-1-${namespace}`);
  if (!acquired.acquired) throw new Error('could not take the maintenance lease');
  return { client, nodeNames: { joined: `ip-10-0-0-1-${namespace}`, lonely: `ip-10-0-0-9-${namespace}` } };
}
