// Several workload clusters ('from-secret'): each Cluster's Nodes come from its own
// `<cluster>-kubeconfig` Secret. The run's shared control plane is the management cluster;
// two private control planes are the workload clusters of Clusters `east` and `west`. West's
// administrator writes west's Nodes and must not reach east's Machines through them.
import { fileURLToPath } from 'node:url';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeGroupProvider, NodeGroupError, type NodeGroupProvider } from '../src/index.js';
import { ClusterObjects, createNode, unique } from './helpers/cluster-objects.js';

const crds = fileURLToPath(new URL('../../../testdata/crds/v1alpha2', import.meta.url));
const management = useControlPlane();

describe.skipIf(noControlPlane('private-local'))(
  'a Node matches only Machines of its own workload cluster',
  () => {
    let eastPlane: ControlPlane;
    let west: ControlPlane;
    let provider: NodeGroupProvider;
    let objects: ClusterObjects;
    const east = unique('east');
    const westName = unique('west');
    const ids = [0, 1].map((i) => `aws:///us-east-1a/i-0${east.replace(/\W/g, '').slice(-6)}00000${i}`);
    const eastNodes = [0, 1].map((i) => unique(`east-node-${i}`));
    const copycat = unique('tenant-copies-providerid');
    const claimant = unique('tenant-names-machine');

    beforeAll(async () => {
      await management.installCRDs(crds);
      eastPlane = await startControlPlane({ backend: 'local', log: () => {} });
      west = await startControlPlane({ backend: 'local', log: () => {} });
      const ns = management.namespace;
      objects = new ClusterObjects(management.kubeConfig, 'cluster.x-k8s.io/v1alpha2', ns);
      const labels = objects.clusterLabel(east);
      const md = await objects.machineDeployment(`${east}-md`, 2, objects.bounds(1, 6), labels);
      const ms = await objects.machineSet(`${east}-ms`, 2, {}, { owner: md, labels });
      for (const i of [0, 1]) {
        await objects.machine(`${east}-m${i}`, { owner: ms, providerID: ids[i], labels });
        await createNode(eastPlane.kubeConfig, eastNodes[i]!, ids[i]);
      }
      // A node group of `west`, so that its workload cluster is read.
      const westLabels = objects.clusterLabel(westName);
      const westSet = await objects.machineSet(`${westName}-ms`, 1, objects.bounds(1, 3), {
        labels: westLabels,
      });
      await objects.machine(`${westName}-m0`, {
        owner: westSet,
        providerID: 'aws:///eu-west-1a/i-0west00000000000',
        labels: westLabels,
      });
      // `west`'s administrator copies east's providerID, or names east's Machine.
      await createNode(west.kubeConfig, copycat, ids[0]);
      await createNode(west.kubeConfig, claimant, undefined, {
        'cluster.x-k8s.io/machine': `${ns}/${east}-m1`,
      });
      const core = management.kubeConfig.makeApiClient(CoreV1Api);
      for (const [name, kubeconfig] of [
        [east, eastPlane.kubeConfig.exportConfig()],
        [westName, west.kubeConfig.exportConfig()],
      ] as const) {
        await core.createNamespacedSecret({
          namespace: ns,
          body: { metadata: { name: `${name}-kubeconfig` }, stringData: { value: kubeconfig } },
        });
      }
      provider = await createNodeGroupProvider({
        management: management.kubeConfig,
        workload: 'from-secret',
        autoDiscovery: [`clusterapi:namespace=${ns}`],
      });
    });

    afterAll(async () => {
      await provider?.stop();
      await Promise.all([eastPlane?.stop(), west?.stop()]);
    });

    it("east's own Nodes find east's group", () => {
      // (other files' Clusters, without Secrets, are workload problems here: not this test's)
      const mine = `Cluster ${management.namespace}/`;
      expect(provider.problems().filter((p) => p.object.startsWith(mine))).toEqual([]);
      for (const node of eastNodes)
        expect(provider.nodeGroupForNode(node)?.id).toBe(
          `MachineDeployment/${management.namespace}/${east}-md`,
        );
    });

    it("a Node of west that copies east's providerID or names east's Machine finds nothing", () => {
      for (const node of [copycat, claimant]) {
        const resolution = provider.explainNode(node);
        expect(resolution.nodeObject).toBeDefined();
        expect([resolution.machine, resolution.group]).toEqual([null, null]);
        expect(provider.nodeGroupForNode(node)).toBeNull();
      }
    });

    it('a Node object without a uid matches nothing, and the explanation names its cluster', () => {
      // The caller's own copy of east's Node (no uid): it cannot be told to be east's, so it
      // matches nothing — and the explanation says which cluster has a Node of that name.
      const copy = { metadata: { name: eastNodes[0]! }, spec: { providerID: ids[0] } };
      const resolution = provider.explainNode(copy);
      expect([resolution.machine, resolution.group]).toEqual([null, null]);
      expect(provider.nodeGroupForNode(copy)).toBeNull();
      expect(resolution.reason).toContain('without a uid');
      expect(resolution.reason).toContain(`workload cluster ${management.namespace}/${east}`);
      // Asked by name, the Node is east's, and finds east's group.
      expect(provider.explainNode(eastNodes[0]!).group?.name).toBe(`${east}-md`);
      // A name no cluster reached has says where it was looked for.
      expect(provider.explainNode(unique('nowhere')).reason).toMatch(
        /^no Node named nowhere-\S+ in the workload clusters reached \(those of the node groups in scope\)$/,
      );
    });

    it("east's group refuses to delete a Node of west, and nothing is written", async () => {
      const [group] = provider.nodeGroups().filter((g) => g.name === `${east}-md`);
      const error = await group!.deleteNodes([copycat]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(NodeGroupError);
      expect(error).toMatchObject({ code: 'no-node-group-for-node' });
      expect(await objects.replicas('MachineDeployment', `${east}-md`)).toBe(2);
      const machine = await objects.get('Machine', `${east}-m0`);
      expect(Object.keys((machine.metadata.annotations as object | undefined) ?? {})).toEqual([]);
    });
  },
);
