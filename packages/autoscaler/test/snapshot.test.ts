// The pure view the provider rebuilds from its caches: groups, ownership, node matching.
import { providerIDRegistry } from '@capi-kit/providerid';
import { describe, expect, it } from 'vitest';
import { clusterScope } from '../src/cluster-scope.js';
import { goQuoteInt } from '../src/errors.js';
import { type KubeObject, Snapshot, type SnapshotInput } from '../src/index.js';
import type { NodeGroup } from '../src/node-group.js';
import { AMBIGUOUS_NODE, groupOfNode, resolveNode } from '../src/resolve-node.js';

const bounds = (min: number, max: number) => ({
  'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': String(min),
  'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': String(max),
});
const obj = (
  kind: string,
  name: string,
  extra: { uid?: string; annotations?: Record<string, string>; owner?: KubeObject; ownerUID?: string } = {},
  spec: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: 'cluster.x-k8s.io/v1alpha2',
  kind,
  metadata: {
    name,
    namespace: 'ns',
    uid: extra.uid ?? `uid-${name}`,
    annotations: extra.annotations ?? {},
    ownerReferences: extra.owner
      ? [
          {
            kind: extra.owner.kind!,
            name: extra.owner.metadata!.name!,
            uid: extra.ownerUID ?? extra.owner.metadata!.uid!,
          },
        ]
      : [],
  },
  spec,
});
const node = (name: string, providerID?: string, annotations: Record<string, string> = {}): KubeObject => ({
  metadata: { name, annotations },
  spec: providerID === undefined ? {} : { providerID },
});
const build = (input: Partial<SnapshotInput>) =>
  new Snapshot({
    machines: [],
    machineSets: [],
    machineDeployments: [],
    autoDiscovery: [],
    registry: providerIDRegistry,
    ...input,
  });

describe('Snapshot', () => {
  const md = obj('MachineDeployment', 'md', { annotations: bounds(1, 4) }, { replicas: 2 });
  const ms = obj('MachineSet', 'md-abc', { owner: md }, { replicas: 2 });
  const solo = obj('MachineSet', 'solo', { annotations: bounds(0, 2) }, { replicas: 1 });
  const m1 = obj('Machine', 'm1', { owner: ms }, { providerID: 'aws:///us-east-1a/i-0123456789abcdef0' });
  const m2 = obj('Machine', 'm2', { owner: solo }, { providerID: 'gce://proj/us-central1-a/vm-2' });

  it('groups deployments and un-owned sets, and owns machines through their sets', () => {
    const s = build({ machines: [m1, m2], machineSets: [ms, solo], machineDeployments: [md] });
    expect([...s.groups.keys()]).toEqual(['MachineDeployment/ns/md', 'MachineSet/ns/solo']);
    expect(s.machinesOf('MachineDeployment/ns/md')).toEqual([m1]);
    expect(s.ownerOf(m2)).toMatchObject({ kind: 'MachineSet', name: 'solo' });
    expect(s.problems).toEqual([]);
  });

  it('without MachineDeployments served, every set is its own candidate', () => {
    const owned = obj('MachineSet', 'owned', { owner: md, annotations: bounds(0, 3) }, { replicas: 1 });
    const s = build({ machineSets: [owned], machineDeployments: undefined });
    expect([...s.groups.keys()]).toEqual(['MachineSet/ns/owned']);
  });

  it('matches respelled providerIDs by identity, not by text', () => {
    const s = build({ machines: [m1, m2], machineSets: [ms, solo], machineDeployments: [md] });
    expect(s.machineOfNode(node('n1', 'aws:////i-0123456789abcdef0'))).toMatchObject({
      machine: m1,
      matchedBy: 'provider-id',
    });
    // Same last segment, another instance: cluster-autoscaler would pair these.
    expect(s.machineOfNode(node('n2', 'gce://other-proj/us-central1-a/vm-2')).machine).toBeUndefined();
  });

  it('reports two machines of one instance as ambiguous', () => {
    const twin = obj('Machine', 'twin', { owner: ms }, { providerID: 'aws:////i-0123456789abcdef0' });
    const s = build({ machines: [m1, twin], machineSets: [ms], machineDeployments: [md] });
    const found = s.machineOfNode(node('n1', 'aws:///us-east-1a/i-0123456789abcdef0'));
    expect(found.machine).toBeUndefined();
    expect(found).toHaveProperty('ambiguous', [m1, twin]);
  });

  it('follows a stale owner UID by name and reports it; a missing owner is reported too', () => {
    const stale = obj(
      'Machine',
      'stale',
      { owner: solo, ownerUID: 'old-uid' },
      { providerID: 'aws:////i-00000001' },
    );
    const lost = obj('Machine', 'lost', { owner: obj('MachineSet', 'gone') });
    const s = build({ machines: [stale, lost], machineSets: [solo] });
    expect(s.ownerOf(stale)).toMatchObject({ kind: 'MachineSet', name: 'solo' });
    expect(s.problems.map((p) => [p.code, p.object])).toEqual([
      ['stale-owner-uid', 'Machine ns/stale'],
      ['unknown-owner', 'Machine ns/lost'],
    ]);
    expect(s.problems[0]!.message).toContain('old-uid');
    // Outside auto-discovery, problems are not this view's to report.
    const elsewhere = { namespace: 'other', clusterName: '', labelSelector: {} };
    expect(
      build({ machines: [stale, lost], machineSets: [solo], autoDiscovery: [elsewhere] }).problems,
    ).toEqual([]);
  });

  it('reports invalid bounds of candidates only (auto-discovery first, as upstream)', () => {
    const bad = obj('MachineSet', 'bad', {
      annotations: { 'cluster.k8s.io/cluster-api-autoscaler-node-group-min-size': '-1' },
    });
    expect(build({ machineSets: [bad] }).boundsErrors.map((p) => p.path)).toEqual([
      'metadata.annotations["cluster.k8s.io/cluster-api-autoscaler-node-group-min-size"]',
    ]);
    const elsewhere = { namespace: 'other', clusterName: '', labelSelector: {} };
    expect(build({ machineSets: [bad], autoDiscovery: [elsewhere] }).boundsErrors).toEqual([]);
  });

  // A Node ID no Machine has: the annotation is upstream's fallback for such Nodes.
  const openstack = 'openstack:///4a6c0c1c-0000-4000-8000-000000000001';

  it('finds a machine by the failed-machine placeholder and by the Node annotation (both spellings)', () => {
    const bare = obj('Machine', 'bare', { owner: solo });
    const s = build({ machines: [bare], machineSets: [solo] });
    expect(s.machineOfNode(node('x', 'failed-machine-ns_bare')).matchedBy).toBe('failed-machine');
    expect(s.machineOfNode(node('x', openstack, { 'cluster.k8s.io/machine': 'ns/bare' })).matchedBy).toBe(
      'node-annotation',
    );
    expect(
      s.machineOfNode(
        node('x', openstack, {
          'cluster.x-k8s.io/machine': 'bare',
          'cluster.x-k8s.io/cluster-namespace': 'ns',
        }),
      ).matchedBy,
    ).toBe('node-annotation');
    expect(s.machineOfNode(node('x', 'aws:////i-0000000f')).machine).toBeUndefined();
  });

  it('a placeholder or annotation leads only to a Machine without a providerID; a Node without one finds none', () => {
    // (a Node without a providerID, or of another instance, that named m2 in its annotation
    // or in a placeholder got m2's group, and deleteNodes on it deleted m2's machine)
    const bare = obj('Machine', 'bare', { owner: solo });
    const s = build({ machines: [bare, m2], machineSets: [solo] });
    const groups = new Map([...s.groups.keys()].map((id) => [id, { id } as unknown as NodeGroup]));
    const names = (machine: string) => ({ 'cluster.x-k8s.io/machine': machine });
    const refused = [
      node('no-id', undefined, names('ns/bare')),
      node('blank-id', ' ', names('ns/bare')),
      node('other-instance', 'gce://proj/us-central1-a/vm-9', names('ns/m2')),
      node('placeholder', 'failed-machine-ns_m2'),
    ];
    for (const n of refused) {
      expect(s.machineOfNode(n).machine).toBeUndefined();
      expect(groupOfNode(s, groups, n)).toBeNull();
    }
    expect(resolveNode(s, groups, refused[0]!).reason).toMatch(/has no providerID/);
    expect(resolveNode(s, groups, refused[2]!).reason).toBe(
      "the Node's annotation cluster.x-k8s.io/machine names Machine ns/m2, which has providerID " +
        '"gce://proj/us-central1-a/vm-2" of another instance: only a Machine without a providerID is found that way',
    );
    expect(resolveNode(s, groups, refused[3]!).reason).toMatch(
      /^the failed-machine placeholder "failed-machine-ns_m2" names Machine ns\/m2/,
    );
    // Upstream's case still holds: a Node with an ID no Machine has, naming one without.
    expect(s.machineOfNode(node('ok', openstack, names('ns/bare')))).toMatchObject({
      machine: bare,
      matchedBy: 'node-annotation',
    });
  });

  it('names each machine’s Node by identity or nodeRef', () => {
    const byRef = {
      ...obj('Machine', 'r', { owner: solo }),
      status: { nodeRef: { kind: 'Node', name: 'n-ref' } },
    };
    const s = build({
      machines: [m1, byRef],
      machineSets: [ms, solo],
      machineDeployments: [md],
      nodes: [node('n-1', 'aws:////i-0123456789abcdef0'), node('n-ref')],
    });
    expect(s.nodeOfMachine(m1)?.metadata?.name).toBe('n-1');
    expect(s.nodeOfMachine(byRef)?.metadata?.name).toBe('n-ref');
    expect(s.nodeNamed('n-ref')).toBeDefined();
  });

  it('groupOfNode answers what resolveNode says, for every kind of Node', () => {
    const twin = obj('Machine', 'twin', { owner: ms }, { providerID: 'aws:////i-0123456789abcdef0' });
    const orphan = obj('Machine', 'orphan', {}, { providerID: 'aws:////i-000000000000000a1' });
    const bare = obj('Machine', 'bare', { owner: solo });
    // A set with no bounds, owned by nothing: its machines have an owner but no node group.
    const plain = obj('MachineSet', 'plain', {}, { replicas: 1 });
    const unscaled = obj(
      'Machine',
      'unscaled',
      { owner: plain },
      { providerID: 'aws:////i-000000000000000a2' },
    );
    const nodes = [
      node('n-md', 'aws:////i-0123456789abcdef0'), // m1 and twin: ambiguous
      node('n-solo', 'gce://proj/us-central1-a/vm-2'),
      node('n-orphan', 'aws:///us-east-1b/i-000000000000000a1'),
      node('n-unscaled', 'aws:////i-000000000000000a2'),
      node('n-none', 'aws:////i-000000000000000ff'),
      node('n-blank'),
      node('n-annotated', 'openstack:///4a6c0c1c-0000-4000-8000-000000000002', {
        'cluster.k8s.io/machine': 'ns/bare',
      }),
      node('same', 'gce://proj/us-central1-a/vm-2'),
      node('same', 'aws:////i-000000000000000a2'),
    ];
    const s = build({
      machines: [m1, twin, m2, orphan, unscaled, bare],
      machineSets: [ms, solo, plain],
      machineDeployments: [md],
      nodes,
    });
    const groups = new Map([...s.groups.keys()].map((id) => [id, { id } as unknown as NodeGroup]));
    const asked = [...nodes, 'n-solo', 'n-orphan', 'n-none', 'no-such-node', 'same'];
    const answers = asked.map((n) => {
      const group = groupOfNode(s, groups, n);
      const resolution = resolveNode(s, groups, n);
      expect(group).toBe(resolution.ambiguous.length > 0 ? AMBIGUOUS_NODE : resolution.group);
      return group === AMBIGUOUS_NODE ? 'ambiguous' : (group?.id ?? null);
    });
    // (and the cases are the ones named: each kind of answer comes up)
    expect(answers).toEqual([
      'ambiguous',
      'MachineSet/ns/solo',
      null,
      null,
      null,
      null,
      'MachineSet/ns/solo',
      'MachineSet/ns/solo',
      null,
      'MachineSet/ns/solo',
      null,
      null,
      null,
      null,
    ]);
  });

  it('reads the cluster.k8s.io/machine annotation only when cluster.x-k8s.io/machine is absent, as upstream', () => {
    // (a cluster.x-k8s.io/machine naming no Machine, or empty, fell through to the old key)
    const bare = obj('Machine', 'bare', { owner: solo });
    const s = build({ machines: [bare], machineSets: [solo] });
    for (const current of ['ns/gone', ''])
      expect(
        s.machineOfNode(
          node('x', openstack, { 'cluster.x-k8s.io/machine': current, 'cluster.k8s.io/machine': 'ns/bare' }),
        ).machine,
      ).toBeUndefined();
    expect(s.machineOfNode(node('x', openstack, { 'cluster.k8s.io/machine': 'ns/bare' })).machine).toBe(bare);
  });

  it('names every Node a machine may be, and only cached ones', () => {
    // (a nodeRef naming no Node, e.g. "Not_A_Node", was asked about: its lease read failed,
    // and the group's nodes() and deleteNodes failed with it)
    const m = (name: string, ref: string) => ({
      ...obj('Machine', name, { owner: solo }, { providerID: 'aws:////i-00000000000000001' }),
      status: { nodeRef: { kind: 'Node', name: ref } },
    });
    const real = m('real', 'n-ref');
    const odd = { ...m('odd', 'Not_A_Node'), spec: {} };
    const s = build({
      machines: [real, odd],
      machineSets: [solo],
      nodes: [
        node('n-1', 'aws:///us-east-1a/i-00000000000000001'),
        node('n-2', 'aws:////i-00000000000000001'),
        node('n-ref'),
      ],
    });
    expect(s.nodeNamesOfMachine(real).sort()).toEqual(['n-1', 'n-2', 'n-ref']);
    expect(s.nodeNamesOfMachine(odd)).toEqual([]);
  });

  it("a machine's nodeRef names a Node of its own workload cluster only", () => {
    // (east's Machine whose Node was gone took west's Node of the same name: nodes() gave
    // west's providerID as the east machine's instance)
    const east = {
      ...obj('Machine', 'e', { owner: solo }, { clusterName: 'east' }),
      status: { nodeRef: { kind: 'Node', name: 'n1' } },
    };
    const westNode = {
      ...node('n1', 'aws:///eu-west-1a/i-0ffffffffffffffff'),
      metadata: { name: 'n1', uid: 'w1' },
    };
    const eastNode = {
      ...node('n1', 'aws:///us-east-1a/i-0eeeeeeeeeeeeeeee'),
      metadata: { name: 'n1', uid: 'e1' },
    };
    const machineCluster = (m: KubeObject) => `ns/${(m.spec as { clusterName: string }).clusterName}`;
    const onlyWest = build({
      machines: [east],
      machineSets: [solo],
      nodes: [westNode],
      scope: clusterScope([{ node: westNode, cluster: 'ns/west' }], machineCluster),
    });
    expect(onlyWest.nodeOfMachine(east)).toBeUndefined();
    const onlyEast = build({
      machines: [east],
      machineSets: [solo],
      nodes: [eastNode],
      scope: clusterScope([{ node: eastNode, cluster: 'ns/east' }], machineCluster),
    });
    expect(onlyEast.nodeOfMachine(east)).toBe(eastNode);
  });

  it('a Node name that several workload clusters use finds no Node', () => {
    const s = build({ nodes: [node('same', 'aws:////i-00000001'), node('same', 'aws:////i-00000002')] });
    expect(s.nodeNamed('same')).toBeUndefined();
    expect(s.nodeNameIsAmbiguous('same')).toBe(true);
  });
});

describe("Go's %q of an int (upstream's message)", () => {
  it.each([
    [3, "'\\x03'"],
    [2, "'\\x02'"],
    [10, "'\\n'"],
    [65, "'A'"],
    [39, "'\\''"],
    [127, "'\\x7f'"],
    [200, "'È'"],
  ])('%i → %s', (n, quoted) => expect(goQuoteInt(n)).toBe(quoted));
});

describe('signatures (what invalidates the view)', () => {
  it('ignore heartbeats and status churn, and see every field the view reads', async () => {
    const { signatureOf } = await import('../src/signatures.js');
    const node = {
      metadata: { name: 'n', resourceVersion: '1' },
      spec: { providerID: 'aws:////i-00000001' },
    };
    const beat = {
      ...node,
      metadata: { ...node.metadata, resourceVersion: '2' },
      status: { conditions: [] },
    };
    expect(signatureOf('Node', beat)).toBe(signatureOf('Node', node));
    expect(signatureOf('Node', { ...node, spec: { providerID: 'aws:////i-00000002' } })).not.toBe(
      signatureOf('Node', node),
    );
    const machine = { metadata: { name: 'm' }, spec: { providerID: 'x' }, status: { phase: 'Running' } };
    expect(signatureOf('Machine', { ...machine, status: { phase: 'Deleting' } })).toBe(
      signatureOf('Machine', machine),
    );
    expect(signatureOf('Machine', { ...machine, status: { errorMessage: 'boom' } })).not.toBe(
      signatureOf('Machine', machine),
    );
    const md = { metadata: { name: 'd', annotations: {} }, spec: { replicas: 1 } };
    expect(signatureOf('MachineDeployment', { ...md, spec: { replicas: 0 } })).not.toBe(
      signatureOf('MachineDeployment', md),
    );
  });
});

describe('failed machines (placeholder when there is no providerID)', () => {
  it.each([
    ['v1alpha3–v1beta1', { failureMessage: 'boom' }, true],
    ['v1alpha1/v1alpha2', { errorReason: 'InvalidConfiguration' }, true],
    ['v1beta2', { deprecated: { v1beta1: { failureMessage: 'boom' } } }, true],
    ['healthy', { phase: 'Running' }, false],
    ['empty message', { failureMessage: '' }, false],
  ])('%s', async (_, status, failed) => {
    const { hasFailed } = await import('../src/placeholders.js');
    expect(hasFailed({ metadata: { name: 'm' }, status })).toBe(failed);
  });
});
