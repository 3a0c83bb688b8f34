import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type ChainOptions,
  type ChainVersion,
  CONVERSION_DATA_ANNOTATION,
  convertObject,
  convertTo,
  durationToSeconds,
  secondsToDuration,
  V1ALPHA1,
  V1ALPHA2,
  V1ALPHA3,
  V1ALPHA4,
  V1BETA1,
  V1BETA2,
} from '../src/index.js';

type Obj = Record<string, unknown>;

function convert(object: Obj, to: ChainVersion, options: ChainOptions = {}) {
  const result = convertTo(object, to, options);
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

/** The object without our stash annotation (and without annotations left empty by it). */
function plain(object: Obj): Obj {
  const copy = structuredClone(object) as { metadata?: { annotations?: Obj } };
  if (copy.metadata?.annotations !== undefined) {
    delete copy.metadata.annotations[CONVERSION_DATA_ANNOTATION];
    if (Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
  }
  return copy as Obj;
}

const m = (name = 'm') => ({ name, namespace: 'ns' });
/** A metav1 condition: the same in v1beta1's `status.v1beta2` and v1beta2's `status`. */
const available = {
  type: 'Available',
  status: 'True',
  reason: 'R',
  message: '',
  lastTransitionTime: '2024-01-01T00:00:00Z',
};

// One row per hop and kind: the older object, the newer one the table makes of it.
const table: readonly { hop: string; from: Obj; to: Obj }[] = [
  {
    hop: 'v1alpha2 → v1alpha3 Cluster',
    from: {
      apiVersion: V1ALPHA2,
      kind: 'Cluster',
      metadata: m('c'),
      status: {
        apiEndpoints: [{ host: 'h', port: 6443 }],
        errorReason: 'R',
        errorMessage: 'M',
        phase: 'provisioned',
      },
    },
    to: {
      apiVersion: V1ALPHA3,
      kind: 'Cluster',
      metadata: m('c'),
      spec: { controlPlaneEndpoint: { host: 'h', port: 6443 } },
      status: { failureReason: 'R', failureMessage: 'M', phase: 'Provisioned' },
    },
  },
  {
    hop: 'v1alpha2 → v1alpha3 Machine',
    from: {
      apiVersion: V1ALPHA2,
      kind: 'Machine',
      metadata: {
        ...m(),
        labels: { 'cluster.x-k8s.io/cluster-name': 'c1' },
        annotations: { 'machine.cluster.x-k8s.io.io/exclude-node-draining': '' },
      },
      spec: { metadata: { labels: { a: 'b' } }, bootstrap: { data: 'eA==' } },
    },
    to: {
      apiVersion: V1ALPHA3,
      kind: 'Machine',
      metadata: {
        ...m(),
        labels: { 'cluster.x-k8s.io/cluster-name': 'c1' },
        annotations: { 'machine.cluster.x-k8s.io/exclude-node-draining': '' },
      },
      spec: { clusterName: 'c1', bootstrap: { data: 'eA==' } },
    },
  },
  {
    hop: 'v1alpha3 → v1alpha4 Cluster',
    from: {
      apiVersion: V1ALPHA3,
      kind: 'Cluster',
      metadata: m('c'),
      status: { controlPlaneInitialized: true },
    },
    to: {
      apiVersion: V1ALPHA4,
      kind: 'Cluster',
      metadata: m('c'),
      status: { conditions: [{ type: 'ControlPlaneInitialized', status: 'True' }] },
    },
  },
  {
    hop: 'v1alpha3 → v1alpha4 MachineSet',
    from: {
      apiVersion: V1ALPHA3,
      kind: 'MachineSet',
      metadata: m('s'),
      spec: {
        clusterName: 'c1',
        template: {
          metadata: { name: 't', labels: { a: 'b' } },
          spec: { clusterName: 'c1', bootstrap: { data: 'eA==' } },
        },
      },
    },
    to: {
      apiVersion: V1ALPHA4,
      kind: 'MachineSet',
      metadata: m('s'),
      spec: {
        clusterName: 'c1',
        template: { metadata: { labels: { a: 'b' } }, spec: { clusterName: 'c1' } },
      },
    },
  },
  {
    hop: 'v1alpha4 → v1beta1 Machine',
    from: {
      apiVersion: V1ALPHA4,
      kind: 'Machine',
      metadata: m(),
      spec: { clusterName: 'c1' },
      status: { version: 'v1.21.1' },
    },
    to: { apiVersion: V1BETA1, kind: 'Machine', metadata: m(), spec: { clusterName: 'c1' } },
  },
  {
    hop: 'v1beta1 → v1beta2 Cluster',
    from: {
      apiVersion: V1BETA1,
      kind: 'Cluster',
      metadata: m('c'),
      spec: {
        paused: true,
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DockerCluster',
          name: 'c',
          namespace: 'ns',
        },
        topology: { class: 'quick-start', classNamespace: 'ns', version: 'v1.31.0' },
      },
      status: {
        infrastructureReady: true,
        controlPlaneReady: false,
        failureDomains: { b: { controlPlane: true }, a: { attributes: { x: 'y' } } },
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }],
        v1beta2: {
          conditions: [available],
        },
      },
    },
    to: {
      apiVersion: V1BETA2,
      kind: 'Cluster',
      metadata: m('c'),
      spec: {
        paused: true,
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerCluster', name: 'c' },
        topology: { classRef: { name: 'quick-start', namespace: 'ns' }, version: 'v1.31.0' },
      },
      status: {
        initialization: { infrastructureProvisioned: true, controlPlaneInitialized: false },
        failureDomains: [
          { name: 'a', attributes: { x: 'y' } },
          { name: 'b', controlPlane: true },
        ],
        deprecated: {
          v1beta1: {
            conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }],
          },
        },
        conditions: [available],
      },
    },
  },
  {
    // Upstream: Convert_v1beta1_{ControlPlane,MachineDeployment,MachinePool}Topology_To_v1beta2_*.
    hop: 'v1beta1 → v1beta2 Cluster topology internals',
    from: {
      apiVersion: V1BETA1,
      kind: 'Cluster',
      metadata: m('c'),
      spec: {
        topology: {
          class: 'quick-start',
          version: 'v1.31.0',
          controlPlane: {
            replicas: 3,
            nodeDrainTimeout: '90s',
            machineHealthCheck: {
              enable: true,
              unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '5m0s' }],
              nodeStartupTimeout: '10m0s',
              maxUnhealthy: '40%',
              remediationTemplate: {
                apiVersion: 'infrastructure.example.com/v1',
                kind: 'T',
                name: 't',
                namespace: 'ns',
              },
            },
          },
          workers: {
            machineDeployments: [
              {
                class: 'default-worker',
                name: 'md-0',
                rollout: { after: '2026-01-01T00:00:00Z' },
                strategy: {
                  type: 'RollingUpdate',
                  rollingUpdate: { maxSurge: 1, maxUnavailable: 0, deletePolicy: 'Oldest' },
                  remediation: { maxInFlight: 2 },
                },
                nodeDeletionTimeout: '30s',
                machineHealthCheck: { unhealthyRange: '[1-3]' },
              },
              { class: 'default-worker', name: 'md-1', strategy: { remediation: { maxInFlight: '50%' } } },
            ],
            machinePools: [{ class: 'pool', name: 'mp-0', nodeVolumeDetachTimeout: '1m0s' }],
          },
        },
      },
    },
    to: {
      apiVersion: V1BETA2,
      kind: 'Cluster',
      metadata: m('c'),
      spec: {
        topology: {
          classRef: { name: 'quick-start' },
          version: 'v1.31.0',
          controlPlane: {
            replicas: 3,
            deletion: { nodeDrainTimeoutSeconds: 90 },
            healthCheck: {
              enabled: true,
              checks: {
                unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
                nodeStartupTimeoutSeconds: 600,
              },
              remediation: {
                triggerIf: { unhealthyLessThanOrEqualTo: '40%' },
                templateRef: { apiVersion: 'infrastructure.example.com/v1', kind: 'T', name: 't' },
              },
            },
          },
          workers: {
            machineDeployments: [
              {
                class: 'default-worker',
                name: 'md-0',
                rollout: {
                  after: '2026-01-01T00:00:00Z',
                  strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
                },
                deletion: { order: 'Oldest', nodeDeletionTimeoutSeconds: 30 },
                healthCheck: { remediation: { triggerIf: { unhealthyInRange: '[1-3]' }, maxInFlight: 2 } },
              },
              { class: 'default-worker', name: 'md-1', healthCheck: { remediation: { maxInFlight: '50%' } } },
            ],
            machinePools: [{ class: 'pool', name: 'mp-0', deletion: { nodeVolumeDetachTimeoutSeconds: 60 } }],
          },
        },
      },
    },
  },
  {
    hop: 'v1beta1 → v1beta2 MachineDeployment',
    from: {
      apiVersion: V1BETA1,
      kind: 'MachineDeployment',
      metadata: m('d'),
      spec: {
        clusterName: 'c1',
        minReadySeconds: 7,
        revisionHistoryLimit: 1,
        rolloutAfter: '2024-01-01T00:00:00Z',
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: 1, deletePolicy: 'Oldest' },
          remediation: { maxInFlight: 2 },
        },
        template: { spec: { clusterName: 'c1', nodeDrainTimeout: '2m', bootstrap: { dataSecretName: 's' } } },
      },
      status: {
        replicas: 3,
        readyReplicas: 2,
        updatedReplicas: 3,
        v1beta2: { readyReplicas: 1, upToDateReplicas: 3 },
      },
    },
    to: {
      apiVersion: V1BETA2,
      kind: 'MachineDeployment',
      metadata: m('d'),
      spec: {
        clusterName: 'c1',
        rollout: {
          after: '2024-01-01T00:00:00Z',
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
        },
        deletion: { order: 'Oldest' },
        remediation: { maxInFlight: 2 },
        template: {
          spec: {
            clusterName: 'c1',
            minReadySeconds: 7,
            deletion: { nodeDrainTimeoutSeconds: 120 },
            bootstrap: { dataSecretName: 's' },
          },
        },
      },
      status: {
        replicas: 3,
        readyReplicas: 1,
        upToDateReplicas: 3,
        deprecated: { v1beta1: { readyReplicas: 2, updatedReplicas: 3 } },
      },
    },
  },
  {
    hop: 'v1beta1 → v1beta2 MachineHealthCheck',
    from: {
      apiVersion: V1BETA1,
      kind: 'MachineHealthCheck',
      metadata: m('h'),
      spec: {
        clusterName: 'c1',
        maxUnhealthy: '40%',
        unhealthyRange: '[1-3]',
        nodeStartupTimeout: '10m',
        unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '300s' }],
        remediationTemplate: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'T',
          name: 't',
          namespace: 'ns',
        },
      },
    },
    to: {
      apiVersion: V1BETA2,
      kind: 'MachineHealthCheck',
      metadata: m('h'),
      spec: {
        clusterName: 'c1',
        checks: {
          nodeStartupTimeoutSeconds: 600,
          unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
        },
        remediation: {
          triggerIf: { unhealthyLessThanOrEqualTo: '40%', unhealthyInRange: '[1-3]' },
          templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'T', name: 't' },
        },
      },
    },
  },
];

describe('each hop moves what its table says, and comes back exactly', () => {
  it.each(table)('$hop', ({ from, to }) => {
    const up = convert(from, to.apiVersion as ChainVersion);
    expect(plain(up.object)).toStrictEqual(to);
    expect(convert(up.object, from.apiVersion as ChainVersion).object).toStrictEqual(from);
  });
});

describe('v1beta2 → v1beta1 topology internals without a stash', () => {
  it('rebuilds machineHealthCheck, strategy and timeouts as upstream does', () => {
    const row = table.find((r) => r.hop === 'v1beta1 → v1beta2 Cluster topology internals')!;
    const down = convert(row.to, V1BETA1);
    // Go writes 90s back as 1m30s; the template's namespace has no v1beta2 field.
    const expected = JSON.parse(
      JSON.stringify(row.from).replace('"90s"', '"1m30s"').replace(',"namespace":"ns"}}', '}}'),
    );
    expect(expected.spec.topology.controlPlane.machineHealthCheck.remediationTemplate).toEqual({
      apiVersion: 'infrastructure.example.com/v1',
      kind: 'T',
      name: 't',
    });
    expect(plain(down.object)).toStrictEqual(expected);
  });
});

describe('failure domains', () => {
  it('a v1beta1 domain whose value holds a stray name is still named by its key in v1beta2, and comes back', () => {
    // (the stray field overrode the key: domain a became a second domain b, silently)
    const cluster = {
      apiVersion: V1BETA1,
      kind: 'Cluster',
      metadata: { name: 'c', namespace: 'ns' },
      status: { failureDomains: { a: { name: 'b', controlPlane: true }, b: {} } },
    };
    const up = convert(structuredClone(cluster), V1BETA2).object as { status: { failureDomains: Obj[] } };
    expect(up.status.failureDomains).toStrictEqual([{ name: 'a', controlPlane: true }, { name: 'b' }]);
    const back = convert(up, V1BETA1).object as { status: { failureDomains: Obj } };
    expect(back.status.failureDomains.a).toStrictEqual(cluster.status.failureDomains.a);
    expect(back.status.failureDomains.b).toStrictEqual({});
  });

  it('sorts names in Go’s order (UTF-8 bytes), not by UTF-16 code units', () => {
    // U+FF5E is EF BD 9E in UTF-8, U+1F600 F0 9F 98 80; in UTF-16 the emoji's D83D comes first.
    const names = ['b\u{1F600}', 'b\uFF5E', 'a', 'b'];
    const cluster = {
      apiVersion: V1BETA1,
      kind: 'Cluster',
      metadata: { name: 'c', namespace: 'ns' },
      status: { failureDomains: Object.fromEntries(names.map((n) => [n, {}])) },
    };
    const up = convert(cluster, V1BETA2).object as { status: { failureDomains: Obj[] } };
    expect(up.status.failureDomains.map((d) => d.name)).toStrictEqual(['a', 'b', 'b\uFF5E', 'b\u{1F600}']);
  });
});

describe('keys named __proto__ are kept as keys (plain assignment set the prototype instead)', () => {
  it('a v1beta2 failure domain named __proto__ becomes a v1beta1 map key, and comes back', () => {
    // (the v1beta2 CRD asks only 1–256 characters of a name, so the API server stores it)
    const cluster =
      JSON.parse(`{"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"Cluster","metadata":{"name":"c","namespace":"ns"},
      "status":{"failureDomains":[{"name":"__proto__","controlPlane":true},{"name":"zone-a","controlPlane":false}]}}`);
    const down = convert(cluster, V1BETA1).object as { status: { failureDomains: Obj } };
    expect(Object.keys(down.status.failureDomains)).toEqual(['__proto__', 'zone-a']);
    expect(Object.getPrototypeOf(down.status.failureDomains)).toBe(Object.prototype);
    expect(plain(convert(down, V1BETA2).object)).toStrictEqual(cluster);
  });

  it('an annotation named __proto__ beside a renamed revision annotation, v1alpha2 → v1alpha3 and back', () => {
    const md =
      JSON.parse(`{"apiVersion":"cluster.x-k8s.io/v1alpha2","kind":"MachineDeployment","metadata":{"name":"d","namespace":"ns",
      "annotations":{"__proto__":"x","machinedeployment.clusters.k8s.io/revision":"3"}},"spec":{}}`);
    const up = convert(md, V1ALPHA3).object as { metadata: { annotations: Obj } };
    expect(Object.hasOwn(up.metadata.annotations, '__proto__')).toBe(true);
    expect(up.metadata.annotations['machinedeployment.clusters.x-k8s.io/revision']).toBe('3');
    expect(plain(convert(up, V1ALPHA2).object)).toStrictEqual(md);
  });
});

describe('v1beta2 → v1beta1 references', () => {
  const v1beta2: Obj = {
    apiVersion: V1BETA2,
    kind: 'Machine',
    metadata: m(),
    spec: {
      clusterName: 'c1',
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachine', name: 'm' },
    },
  };
  it('without a stash or a lookup: kept without an apiVersion, with a warning', () => {
    const down = convert(v1beta2, V1BETA1);
    expect((down.object.spec as Obj).infrastructureRef).toEqual({
      kind: 'DockerMachine',
      name: 'm',
      namespace: 'ns',
    });
    expect(down.reports[0]!.warnings.join('\n')).toMatch(
      /spec\.infrastructureRef: no apiVersion for infrastructure\.cluster\.x-k8s\.io DockerMachine/,
    );
  });
  it('the warning names a core-group reference and one without group or kind plainly', () => {
    const named = (infrastructureRef: Obj) =>
      convert(
        { ...v1beta2, spec: { clusterName: 'c1', infrastructureRef } },
        V1BETA1,
      ).reports[0]!.warnings.join('\n');
    // (before: "no apiVersion for  ConfigMap" and "no apiVersion for (no group) undefined")
    expect(named({ apiGroup: '', kind: 'ConfigMap', name: 'm' })).toContain(
      'no apiVersion for core group ConfigMap (',
    );
    expect(named({ name: 'm' })).toContain('no apiVersion for (no apiGroup) (no kind) (');
  });
  it('with a lookup (from CRD contract labels): its apiVersion', () => {
    const down = convert(v1beta2, V1BETA1, {
      referenceApiVersion: (group, kind) => (kind === 'DockerMachine' ? `${group}/v1beta2` : undefined),
    });
    expect((down.object.spec as Obj).infrastructureRef).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'DockerMachine',
      name: 'm',
      namespace: 'ns',
    });
    expect(down.reports[0]!.warnings).toEqual([]);
  });
});

describe('stash rules hold on every hop', () => {
  const stashOn = (object: Obj, restores: string, patch: unknown[]): Obj => ({
    ...object,
    metadata: {
      ...(object.metadata as Obj),
      annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify({ restores, patch }) },
    },
  });
  const v1alpha4Machine: Obj = {
    apiVersion: V1ALPHA4,
    kind: 'Machine',
    metadata: m(),
    spec: { clusterName: 'c1' },
  };

  it('restores v1alpha3 bootstrap.data after a v1alpha4 hop (v1alpha4 cannot hold it)', () => {
    const object = stashOn(v1alpha4Machine, V1ALPHA3, [{ p: ['spec', 'bootstrap'], v: { data: 'eA==' } }]);
    expect((convert(object, V1ALPHA3).object.spec as Obj).bootstrap).toEqual({ data: 'eA==' });
  });

  it.each([
    ['renames the object', V1ALPHA3, [{ p: ['metadata', 'name'], v: 'evil' }], 'metadata.name'],
    [
      'moves it to another namespace',
      V1ALPHA3,
      [{ p: ['metadata', 'namespace'], v: 'kube-system' }],
      'metadata.namespace',
    ],
    ['changes its kind', V1ALPHA3, [{ p: ['kind'], v: 'ClusterRoleBinding' }], 'kind'],
    [
      'sets a field the hop neither moves nor drops',
      V1ALPHA3,
      [{ p: ['spec', 'clusterName'], v: 'other' }],
      'spec.clusterName',
    ],
    [
      'points a reference into another namespace',
      V1ALPHA3,
      [{ p: ['spec', 'infrastructureRef'], v: { kind: 'K', name: 'n', namespace: 'other' } }],
      'spec.infrastructureRef',
    ],
  ])('refuses a stash that %s', (_what, restores, patch, path) => {
    const result = convertTo(stashOn(v1alpha4Machine, restores, patch), V1ALPHA3);
    expect(E.isLeft(result) && result.left.path).toContain(path);
  });

  it('refuses injecting bootstrap.data where the source version holds it natively (v1alpha3 → v1alpha2)', () => {
    const v1alpha3: Obj = {
      apiVersion: V1ALPHA3,
      kind: 'Machine',
      metadata: m(),
      spec: { clusterName: 'c1' },
    };
    const result = convertTo(
      stashOn(v1alpha3, V1ALPHA2, [{ p: ['spec', 'bootstrap'], v: { data: 'evil' } }]),
      V1ALPHA2,
    );
    expect(E.isLeft(result)).toBe(true);
    if (E.isLeft(result)) expect(result.left.code).toMatch(/stash-/);
  });

  it('a stash meant for another hop stays buried, untouched, and comes back on the way home', () => {
    const object = stashOn(v1alpha4Machine, V1ALPHA3, [{ p: ['spec', 'bootstrap'], v: { data: 'eA==' } }]);
    const hub = convert(object, V1BETA2).object;
    expect(
      JSON.parse(((hub.metadata as Obj).annotations as Obj)[CONVERSION_DATA_ANNOTATION] as string),
    ).toMatchObject({
      restores: V1ALPHA3,
    });
    expect(convert(hub, V1ALPHA4).object).toStrictEqual(object);
  });

  it.each([[{ foo: 1 }], ['x'], [{ restores: V1ALPHA3, patch: [], below: { foo: 1 } }]])(
    'refuses a stack whose "below" is not a stash: %j',
    (below) => {
      // (it rode along and came back, alone, as an annotation no conversion reads)
      const annotation = JSON.stringify({ restores: 'example.com/v1', patch: [], below });
      const object = {
        ...v1alpha4Machine,
        metadata: { ...m(), annotations: { [CONVERSION_DATA_ANNOTATION]: annotation } },
      };
      const result = convertTo(object, V1BETA2);
      expect(E.isLeft(result) && result.left).toMatchObject({
        path: `metadata.annotations["${CONVERSION_DATA_ANNOTATION}"]`,
        message: expect.stringMatching(/has a "below" that is not a stash \(stash [23] of the stack\)$/),
      });
    },
  );

  it.each([
    [16, 'carried'],
    [17, 'refused with stash-too-deep'],
  ])('a stack of %i stashes is %s', (height, _what) => {
    // (each one for the way back to v1alpha3, buried under the others: none applies here)
    let stack: Obj | undefined;
    for (let i = 0; i < height; i++) {
      stack = { restores: V1ALPHA3, patch: [], ...(stack === undefined ? {} : { below: stack }) };
    }
    const object = {
      ...v1alpha4Machine,
      metadata: { ...m(), annotations: { [CONVERSION_DATA_ANNOTATION]: JSON.stringify(stack) } },
    };
    const result = convertTo(object, V1BETA2);
    if (height <= 16) {
      expect(E.isRight(result)).toBe(true);
      return;
    }
    expect(E.isLeft(result) && result.left).toMatchObject({
      code: 'stash-too-deep',
      path: `metadata.annotations["${CONVERSION_DATA_ANNOTATION}"]`,
      message: 'holds more than 16 stacked conversion stashes',
    });
  });

  it('refuses a result whose stacked stashes together pass the annotation limit', () => {
    // Each part fits: a buried stash of 150 kB, and the 150 kB bootstrap.data that the
    // v1alpha3 → v1alpha4 hop stashes. Joined at the end, they would be an object the API
    // server refuses (until 2026-12-02 this came back as a result).
    const big = (n: number) => 'x'.repeat(n);
    const object = stashOn(
      {
        apiVersion: V1ALPHA3,
        kind: 'Machine',
        metadata: m(),
        spec: { clusterName: 'c1', bootstrap: { data: big(150_000) } },
      },
      V1ALPHA2,
      [{ p: ['spec', 'x'], v: big(150_000) }],
    );
    const result = convertTo(object, V1ALPHA4);
    expect(E.isLeft(result) && result.left).toMatchObject({
      code: 'annotations-too-large',
      path: 'metadata.annotations',
      message: expect.stringMatching(/^with the conversion stash, annotations total 300\d{3} bytes, over/),
    });
    // One hop further, the next split already refuses the joined stash (as before).
    expect(E.isLeft(convertTo(object, V1BETA1))).toBe(true);
  });
});

describe('durations', () => {
  it.each([
    ['90s', 90],
    ['1m30.5s', 90],
    ['1h2m3s', 3723],
    ['500ms', 0],
    ['-5s', -5],
    ['1.5h', 5400],
    ['99999999h', 2 ** 31 - 1],
    // (a decimal times its unit in floating point fell just short: 4.1m was 245.99999999999997 s)
    ['4.1m', 246],
    ['2.05m', 123],
    ['8.7m', 522],
    ['-4.1m', -246],
  ])('%s is %i whole seconds', (text, seconds) => expect(durationToSeconds(text)).toBe(seconds));
  it('a decimal count of minutes or hours is its exact whole seconds, as Go parses it (every d.d, d.dd up to 100)', () => {
    for (const [unit, nanos] of [
      ['m', 60_000_000_000n],
      ['h', 3_600_000_000_000n],
    ] as const) {
      for (let whole = 0; whole < 100; whole++) {
        for (const digits of [1, 2]) {
          for (let f = 0; f < 10 ** digits; f++) {
            const fraction = String(f).padStart(digits, '0');
            const exact = (BigInt(`${whole}${fraction}`) * nanos) / 10n ** BigInt(digits) / 1_000_000_000n;
            expect(durationToSeconds(`${whole}.${fraction}${unit}`)).toBe(Number(exact));
          }
        }
      }
    }
  });
  it('v1beta1 nodeDrainTimeout 4.1m is 246 seconds in v1beta2', () => {
    const machine = {
      apiVersion: V1BETA1,
      kind: 'Machine',
      metadata: { name: 'm', namespace: 'ns' },
      spec: { clusterName: 'c', bootstrap: { dataSecretName: 's' }, nodeDrainTimeout: '4.1m' },
    };
    const up = convertTo(machine, V1BETA2);
    if (E.isLeft(up)) throw new Error(JSON.stringify(up.left));
    expect((up.right.object.spec as Obj).deletion).toStrictEqual({ nodeDrainTimeoutSeconds: 246 });
    const back = convertTo(up.right.object, V1BETA1);
    expect(E.isRight(back) && back.right.object).toStrictEqual(machine);
  });
  it.each(['', 'abc', '5', '1x', '1h 2m'])('%j is not a duration', (text) =>
    expect(durationToSeconds(text)).toBeUndefined(),
  );
  it.each([
    [0, '0s'],
    [45, '45s'],
    [90, '1m30s'],
    [7200, '2h0m0s'],
  ])('%i seconds print as Go does: %s', (s, text) => expect(secondsToDuration(s)).toBe(text));
});

describe('a duration field holding what is no duration (a clusterctl placeholder)', () => {
  // (built from parts: the lint reads ${…} in a plain string as a mistaken template)
  const placeholder = (name: string) => `$${'{'}${name}}`;
  // (it was left out of the result with the report saying "no field", and no warning)
  const machine = (spec: Obj, apiVersion: ChainVersion) => ({
    apiVersion,
    kind: 'Machine',
    metadata: { name: 'm', namespace: 'default' },
    spec: { clusterName: 'c', bootstrap: { dataSecretName: 's' }, ...spec },
  });

  it('up to v1beta2: left out with a warning, the report says so, and the way back restores it', () => {
    const input = machine(
      { nodeDrainTimeout: placeholder('NODE_DRAIN_TIMEOUT'), nodeDeletionTimeout: '10s' },
      V1BETA1,
    );
    const up = convert(input, V1BETA2);
    expect((up.object.spec as Obj).deletion).toEqual({ nodeDeletionTimeoutSeconds: 10 });
    expect(up.reports[0]!.warnings).toEqual([
      'spec.nodeDrainTimeout: the value has no form spec.deletion.nodeDrainTimeoutSeconds can hold, so that field is left out; the stash keeps the value for the way back',
    ]);
    expect(up.reports[0]!.moves).toContainEqual(
      expect.objectContaining({ from: 'spec.nodeDrainTimeout', unconverted: true }),
    );
    expect(convert(up.object, V1BETA1).object).toStrictEqual(input);
  });

  it('down to v1beta1: a seconds field that is no whole number is left out with a warning', () => {
    const input = machine({ deletion: { nodeDrainTimeoutSeconds: placeholder('SECONDS') } }, V1BETA2);
    const down = convert(input, V1BETA1);
    expect((down.object.spec as Obj).nodeDrainTimeout).toBeUndefined();
    expect(down.reports[0]!.warnings).toContain(
      'spec.deletion.nodeDrainTimeoutSeconds: the value has no form spec.nodeDrainTimeout can hold, so that field is left out; the stash keeps the value for the way back',
    );
    expect(convert(down.object, V1BETA2).object).toStrictEqual(input);
  });

  /** A v1beta1 Cluster of a class, with these workers. */
  const topologyCluster = (workers: Obj) => ({
    apiVersion: V1BETA1,
    kind: 'Cluster',
    metadata: { name: 'c', namespace: 'default' },
    spec: { topology: { class: 'k', version: 'v1.31.0', workers } },
  });

  // (nested rows did not report: these were left out, or kept under a field the version lacks, silently)
  it('a topology machine deployment or pool item: left out with a warning naming the item', () => {
    const input = topologyCluster({
      machineDeployments: [
        { class: 'a', name: 'md-0', nodeDrainTimeout: '30s' },
        { class: 'a', name: 'md-1', nodeDrainTimeout: placeholder('MD_DRAIN') },
      ],
      machinePools: [{ class: 'p', name: 'mp-0', nodeDeletionTimeout: placeholder('MP_DELETE') }],
    });
    const up = convert(input, V1BETA2);
    const workers = ((up.object.spec as Obj).topology as Obj).workers as {
      machineDeployments: Obj[];
      machinePools: Obj[];
    };
    expect(workers.machineDeployments[0]!.deletion).toEqual({ nodeDrainTimeoutSeconds: 30 });
    expect(workers.machineDeployments[1]).toEqual({ class: 'a', name: 'md-1' });
    expect(workers.machinePools[0]).toEqual({ class: 'p', name: 'mp-0' });
    expect(up.reports[0]!.warnings).toEqual([
      'spec.topology.workers.machineDeployments[1].nodeDrainTimeout: the value has no form spec.topology.workers.machineDeployments[1].deletion.nodeDrainTimeoutSeconds can hold, so that field is left out; the stash keeps the value for the way back',
      'spec.topology.workers.machinePools[0].nodeDeletionTimeout: the value has no form spec.topology.workers.machinePools[0].deletion.nodeDeletionTimeoutSeconds can hold, so that field is left out; the stash keeps the value for the way back',
    ]);
    expect(convert(up.object, V1BETA1).object).toStrictEqual(input);
  });

  it('a health check condition: its timeout is left out with a warning, not kept as a field v1beta2 lacks', () => {
    const input = {
      apiVersion: V1BETA1,
      kind: 'MachineHealthCheck',
      metadata: { name: 'h', namespace: 'default' },
      spec: {
        clusterName: 'c',
        selector: {},
        unhealthyConditions: [
          { type: 'Ready', status: 'False', timeout: '5m' },
          { type: 'Ready', status: 'Unknown', timeout: placeholder('T') },
        ],
      },
    };
    const up = convert(input, V1BETA2);
    expect(((up.object.spec as Obj).checks as Obj).unhealthyNodeConditions).toEqual([
      { type: 'Ready', status: 'False', timeoutSeconds: 300 },
      { type: 'Ready', status: 'Unknown' },
    ]);
    expect(up.reports[0]!.warnings).toEqual([
      'spec.unhealthyConditions[1].timeout: the value has no form spec.checks.unhealthyNodeConditions[1].timeoutSeconds can hold, so that field is left out; the stash keeps the value for the way back',
    ]);
    expect(convert(up.object, V1BETA1).object).toStrictEqual(input);

    const down = convert(
      {
        ...up.object,
        metadata: { name: 'h', namespace: 'default' },
        spec: {
          ...(up.object.spec as Obj),
          checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 1.5 }] },
        },
      },
      V1BETA1,
    );
    expect((down.object.spec as Obj).unhealthyConditions).toEqual([{ type: 'Ready', status: 'False' }]);
    expect(down.reports[0]!.warnings).toContain(
      'spec.checks.unhealthyNodeConditions[0].timeoutSeconds: the value has no form spec.unhealthyConditions[0].timeout can hold, so that field is left out; the stash keeps the value for the way back',
    );
  });

  it('a topology health check nested in a machine deployment item names the condition inside the item', () => {
    const input = topologyCluster({
      machineDeployments: [
        {
          class: 'a',
          name: 'md-0',
          machineHealthCheck: {
            unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: placeholder('T') }],
          },
        },
      ],
    });
    const up = convert(input, V1BETA2);
    expect(up.reports[0]!.warnings).toEqual([
      'spec.topology.workers.machineDeployments[0].machineHealthCheck.unhealthyConditions[0].timeout: the value has no form spec.topology.workers.machineDeployments[0].healthCheck.checks.unhealthyNodeConditions[0].timeoutSeconds can hold, so that field is left out; the stash keeps the value for the way back',
    ]);
    expect(convert(up.object, V1BETA1).object).toStrictEqual(input);
  });

  it('a zero or a duration that parses gives no warning', () => {
    const up = convert(machine({ nodeDrainTimeout: '0s', nodeVolumeDetachTimeout: '1m' }, V1BETA1), V1BETA2);
    expect(up.reports[0]!.warnings).toEqual([]);
  });
});

describe('a v1 List (kubectl get -o json of several objects) converts item by item', () => {
  // (it passed through as an object of the core group: nothing in it converted, silently)
  const machine = (name: string) => ({
    apiVersion: V1ALPHA3,
    kind: 'Machine',
    metadata: { name, namespace: 'ns' },
    spec: { clusterName: 'c', bootstrap: { dataSecretName: 's' } },
  });
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' } };

  it('each item as an object of its own, other kinds unchanged, nested Lists too, and back', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: [machine('a'), secret, { apiVersion: 'v1', kind: 'List', items: [machine('b')] }],
    };
    const up = convert(list, V1BETA2);
    const items = up.object.items as Obj[];
    expect(items.map((i) => i.apiVersion)).toEqual([V1BETA2, 'v1', 'v1']);
    expect((items[2]!.items as Obj[])[0]!.apiVersion).toBe(V1BETA2);
    expect(up.reports.map((r) => `${r.kind} ${r.name ?? ''} ${r.action}`)).toEqual([
      'List  unchanged',
      'Machine a converted',
      'Secret s unchanged',
      'List  unchanged',
      'Machine b converted',
    ]);
    expect(convert(up.object, V1ALPHA3).object).toStrictEqual(list);
  });

  it('a failing item fails the List, its path under items[i]', () => {
    const bad = { ...machine('x'), metadata: { name: 'x', namespace: 'ns', labels: { l: 5 } } };
    const result = convertTo({ apiVersion: 'v1', kind: 'List', items: [machine('a'), bad] }, V1BETA2);
    expect(E.isLeft(result) && result.left).toMatchObject({
      objectKind: 'Machine',
      name: 'x',
      path: 'items[1].metadata.labels.l',
    });
    expect(E.isLeft(convertTo({ apiVersion: 'v1', kind: 'List', items: 5 }, V1BETA2))).toBe(true);
  });

  it('convertObject (v1alpha1 ⇄ v1alpha2) does the same', () => {
    const v1alpha2Machine = {
      apiVersion: V1ALPHA2,
      kind: 'Machine',
      metadata: { name: 'm', namespace: 'ns' },
      spec: {
        bootstrap: {},
        infrastructureRef: { apiVersion: 'infra.example.com/v1', kind: 'M', name: 'm' },
      },
    };
    const down = convertObject({ apiVersion: 'v1', kind: 'List', items: [v1alpha2Machine] }, V1ALPHA1);
    expect(E.isRight(down) && (down.right.object.items as Obj[])[0]!.apiVersion).toBe(V1ALPHA1);
  });
});

describe('a stash entry whose path cannot be written', () => {
  it('is not reported as restored (a list indexed by a key: nothing was written)', () => {
    const cluster = {
      apiVersion: V1BETA2,
      kind: 'Cluster',
      metadata: {
        name: 'c',
        namespace: 'ns',
        annotations: {
          [CONVERSION_DATA_ANNOTATION]: JSON.stringify({
            restores: V1BETA1,
            patch: [{ p: ['status', 'conditions', '5'], v: { type: 'X' } }],
          }),
        },
      },
      status: { deprecated: { v1beta1: { conditions: [{ type: 'Ready', status: 'True' }] } } },
    };
    const down = convert(cluster, V1BETA1);
    expect((down.object.status as Obj).conditions).toEqual([{ type: 'Ready', status: 'True' }]);
    expect(down.reports[0]!.restored).toEqual([]);
    expect(down.reports[0]!.keptEdits).toEqual(['status.conditions["5"]']);
  });
});
