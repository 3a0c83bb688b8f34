import fc from 'fast-check';

// Valid Cluster API objects as Go controllers and users write them: every required field,
// a random selection of optional ones, realistic values. Generated independently of the
// codecs (from the Go types and the CRDs).

type Model = Record<string, fc.Arbitrary<unknown>>;

/** An object with every `required` field and any subset of the `optional` ones. */
export function obj(required: Model, optional: Model = {}): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({ ...required, ...optional }, { requiredKeys: Object.keys(required) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

const small = { maxLength: 3 } as const;
export const name = fc.stringMatching(/^[a-z]([a-z0-9-]{0,14}[a-z0-9])?$/);
export const text = fc.string({ maxLength: 12 });
export const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
export const replicas = fc.integer({ min: 0, max: 500 });
export const int64 = fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }), fc.maxSafeInteger());
export const time = fc
  .date({ min: new Date('2018-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true })
  .chain((d) =>
    fc.constantFrom(
      d.toISOString(),
      d.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      d.toISOString().replace(/\.\d{3}Z$/, '+02:00'),
    ),
  );
export const labelKey = fc.oneof(
  name,
  fc.constantFrom('cluster.x-k8s.io/cluster-name', 'cluster.k8s.io/cluster-name', 'app.kubernetes.io/name'),
);
export const stringMap = fc.dictionary(labelKey, text, { maxKeys: 3 });
// Through JSON once, so values are what a JSON text can carry (no -0).
const rawObject = fc
  .dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
  .map((v) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>);

export const ownerReference = obj(
  {
    apiVersion: fc.constantFrom('cluster.x-k8s.io/v1alpha2', 'cluster.k8s.io/v1alpha1'),
    kind: fc.constantFrom('MachineSet', 'Cluster'),
    name,
    uid: fc.uuid(),
  },
  { controller: fc.boolean(), blockOwnerDeletion: fc.boolean() },
);

export const objectMeta = obj(
  {},
  {
    name,
    generateName: name.map((n) => `${n}-`),
    namespace: name,
    uid: fc.uuid(),
    resourceVersion: fc.nat().map(String),
    generation: fc.integer({ min: 1, max: 10_000 }),
    creationTimestamp: fc.option(time, { nil: null }),
    deletionTimestamp: time,
    labels: stringMap,
    annotations: stringMap,
    ownerReferences: fc.array(ownerReference, small),
    finalizers: fc.array(
      fc.constantFrom('machine.cluster.x-k8s.io', 'cluster.cluster.k8s.io', 'foregroundDeletion'),
      small,
    ),
  },
);

export const objectMetaSubset = obj(
  {},
  {
    name,
    generateName: name.map((n) => `${n}-`),
    namespace: name,
    labels: stringMap,
    annotations: stringMap,
    ownerReferences: fc.array(ownerReference, small),
  },
);

export const listMeta = obj({}, { resourceVersion: fc.nat().map(String), continue: text, selfLink: text });

export const objectReference = obj(
  {},
  {
    apiVersion: fc.constantFrom(
      'infrastructure.cluster.x-k8s.io/v1alpha2',
      'bootstrap.cluster.x-k8s.io/v1alpha2',
      'v1',
    ),
    kind: fc.constantFrom('AWSMachine', 'KubeadmConfig', 'Node', 'DockerCluster'),
    name,
    namespace: name,
    uid: fc.uuid(),
    resourceVersion: fc.nat().map(String),
    fieldPath: text,
  },
);

export const labelSelector = obj(
  {},
  {
    matchLabels: stringMap,
    matchExpressions: fc.array(
      obj(
        { key: labelKey, operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist') },
        { values: fc.array(name, small) },
      ),
      small,
    ),
  },
);

const intOrString = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constantFrom('25%', '0', '100%'));
const deletePolicy = fc.constantFrom('Random', 'Newest', 'Oldest');
const errorReason = fc.constantFrom('InvalidConfiguration', 'CreateError', 'DeleteError', 'SomethingNew');
const networkRanges = obj({ cidrBlocks: fc.array(fc.constantFrom('10.96.0.0/12', '192.168.0.0/16'), small) });
const apiEndpoint = (port: fc.Arbitrary<number>) => obj({ host: name, port });
const address = obj({ type: fc.constantFrom('InternalIP', 'ExternalIP', 'Hostname'), address: fc.ipV4() });

function typed(apiVersion: string, kind: string, body: Model): fc.Arbitrary<Record<string, unknown>> {
  return obj(
    { apiVersion: fc.constant(apiVersion), kind: fc.constant(kind) },
    { metadata: objectMeta, ...body },
  );
}

// MachineSet and MachineDeployment have the same shape in both versions but for the Machine
// template and v1alpha2's `status.selector` (the label selector as a string): `statusExtra`.
function machineSet(apiVersion: string, template: fc.Arbitrary<unknown>, statusExtra: Model) {
  return typed(apiVersion, 'MachineSet', {
    spec: obj({ selector: labelSelector }, { replicas, minReadySeconds: replicas, deletePolicy, template }),
    status: obj(
      { replicas },
      {
        ...statusExtra,
        fullyLabeledReplicas: replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        observedGeneration: int64,
        errorReason,
        errorMessage: text,
      },
    ),
  });
}

function machineDeployment(apiVersion: string, template: fc.Arbitrary<unknown>, statusExtra: Model) {
  return typed(apiVersion, 'MachineDeployment', {
    spec: obj(
      { selector: labelSelector, template },
      {
        replicas,
        strategy: obj(
          {},
          {
            type: fc.constant('RollingUpdate'),
            rollingUpdate: obj({}, { maxSurge: intOrString, maxUnavailable: intOrString }),
          },
        ),
        minReadySeconds: replicas,
        revisionHistoryLimit: replicas,
        paused: fc.boolean(),
        progressDeadlineSeconds: replicas,
      },
    ),
    status: obj(
      {},
      {
        ...statusExtra,
        observedGeneration: int64,
        replicas,
        updatedReplicas: replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        unavailableReplicas: replicas,
      },
    ),
  });
}

/** A List of `item`s, whose items sometimes leave out apiVersion and kind (typed Go clients). */
export function listOf(apiVersion: string, kind: string, item: fc.Arbitrary<Record<string, unknown>>) {
  const listItem = fc.tuple(item, fc.boolean()).map(([value, bare]) => {
    if (!bare) return value;
    const { apiVersion: _a, kind: _k, ...rest } = value;
    return rest;
  });
  return obj(
    {
      apiVersion: fc.constant(apiVersion),
      kind: fc.constant(`${kind}List`),
      items: fc.array(listItem, { maxLength: 3 }),
    },
    { metadata: listMeta },
  );
}

// ---- cluster.k8s.io/v1alpha1 ----

const v1a1 = 'cluster.k8s.io/v1alpha1';
const providerSpecV1 = obj(
  {},
  {
    value: rawObject.map((v) => ({
      apiVersion: 'awsprovider/v1alpha1',
      kind: 'AWSMachineProviderSpec',
      ...v,
    })),
    valueFrom: obj(
      {},
      {
        machineClass: obj(
          {},
          {
            name,
            namespace: name,
            kind: fc.constant('MachineClass'),
            provider: fc.constantFrom('aws', 'gcp'),
          },
        ),
      },
    ),
  },
);
const versionsV1 = obj(
  { kubelet: fc.constantFrom('1.14.3', '1.15.0') },
  { controlPlane: fc.constantFrom('1.14.3', '') },
);
const machineSpecV1 = obj(
  { providerSpec: providerSpecV1 },
  {
    metadata: objectMeta,
    taints: fc.array(
      obj(
        { key: name, effect: fc.constantFrom('NoSchedule', 'NoExecute') },
        { value: text, timeAdded: time },
      ),
      small,
    ),
    versions: versionsV1,
    configSource: obj(
      {},
      {
        configMap: obj(
          { namespace: name, name, kubeletConfigKey: name },
          { uid: fc.uuid(), resourceVersion: text },
        ),
      },
    ),
    providerID: fc.constantFrom('aws:///us-east-1a/i-0abc', 'gce://project/zone/vm-1'),
  },
);
const machineStatusV1 = obj(
  {},
  {
    nodeRef: objectReference,
    lastUpdated: time,
    versions: versionsV1,
    errorReason,
    errorMessage: text,
    providerStatus: rawObject,
    addresses: fc.array(address, small),
    conditions: fc.array(
      obj(
        {
          type: fc.constantFrom('Ready', 'MemoryPressure'),
          status: fc.constantFrom('True', 'False', 'Unknown'),
        },
        {
          lastHeartbeatTime: fc.option(time, { nil: null }),
          lastTransitionTime: fc.option(time, { nil: null }),
          reason: text,
          message: text,
        },
      ),
      small,
    ),
    lastOperation: obj(
      {},
      { description: text, lastUpdated: time, state: text, type: fc.constantFrom('Create', 'Delete') },
    ),
    phase: fc.constantFrom('Running', 'Pending', 'Failed', 'anything'),
  },
);
const templateV1 = obj({}, { metadata: objectMeta, spec: machineSpecV1 });

export const v1alpha1 = {
  Cluster: typed(v1a1, 'Cluster', {
    spec: obj(
      {
        clusterNetwork: obj({
          services: networkRanges,
          pods: networkRanges,
          serviceDomain: fc.constantFrom('cluster.local', ''),
        }),
      },
      { providerSpec: providerSpecV1 },
    ),
    status: obj(
      {},
      {
        apiEndpoints: fc.array(apiEndpoint(fc.integer({ min: 1, max: 65535 })), small),
        errorReason,
        errorMessage: text,
        providerStatus: rawObject,
      },
    ),
  }),
  Machine: typed(v1a1, 'Machine', { spec: machineSpecV1, status: machineStatusV1 }),
  MachineSet: machineSet(v1a1, templateV1, {}),
  MachineDeployment: machineDeployment(v1a1, templateV1, {}),
  MachineClass: obj(
    { apiVersion: fc.constant(v1a1), kind: fc.constant('MachineClass'), providerSpec: rawObject },
    { metadata: objectMeta },
  ),
};

// ---- cluster.x-k8s.io/v1alpha2 ----

const v1a2 = 'cluster.x-k8s.io/v1alpha2';
const machineSpecV2 = obj(
  {
    bootstrap: obj({}, { configRef: objectReference, data: fc.constantFrom('', 'I2Nsb3VkLWNvbmZpZw==') }),
    infrastructureRef: objectReference,
  },
  {
    metadata: objectMetaSubset,
    version: fc.constantFrom('v1.15.3', 'v1.16.0'),
    providerID: fc.constantFrom('aws:///us-east-1a/i-0abc', 'docker:////c1-worker'),
  },
);
const templateV2 = obj({}, { metadata: objectMetaSubset, spec: machineSpecV2 });
const selectorString = fc.constantFrom(
  'app=web',
  'cluster.x-k8s.io/cluster-name=c1,machine-template-hash=123',
);

export const v1alpha2 = {
  Cluster: typed(v1a2, 'Cluster', {
    spec: obj(
      {},
      {
        clusterNetwork: obj(
          {},
          {
            apiServerPort: fc.integer({ min: 1, max: 65535 }),
            services: networkRanges,
            pods: networkRanges,
            serviceDomain: fc.constant('cluster.local'),
          },
        ),
        infrastructureRef: objectReference,
      },
    ),
    status: obj(
      {},
      {
        apiEndpoints: fc.array(apiEndpoint(fc.integer({ min: 1, max: 65535 })), small),
        errorReason,
        errorMessage: text,
        phase: fc.constantFrom('pending', 'provisioning', 'provisioned', 'deleting', 'failed'),
        infrastructureReady: fc.boolean(),
        controlPlaneInitialized: fc.boolean(),
      },
    ),
  }),
  Machine: typed(v1a2, 'Machine', {
    spec: machineSpecV2,
    status: obj(
      {},
      {
        nodeRef: objectReference,
        lastUpdated: time,
        version: fc.constant('v1.15.3'),
        errorReason,
        errorMessage: text,
        addresses: fc.array(address, small),
        phase: fc.constantFrom('pending', 'running', 'failed'),
        bootstrapReady: fc.boolean(),
        infrastructureReady: fc.boolean(),
      },
    ),
  }),
  MachineSet: machineSet(v1a2, templateV2, { selector: selectorString }),
  MachineDeployment: machineDeployment(v1a2, templateV2, { selector: selectorString }),
};

/** The arbitrary of every `version/kind`, Lists included. */
export function validObjects(): Record<string, fc.Arbitrary<Record<string, unknown>>> {
  const out: Record<string, fc.Arbitrary<Record<string, unknown>>> = {};
  for (const [version, apiVersion, kinds] of [
    ['v1alpha1', v1a1, v1alpha1],
    ['v1alpha2', v1a2, v1alpha2],
  ] as const) {
    for (const [kind, arb] of Object.entries(kinds)) {
      out[`${version}/${kind}`] = arb;
      out[`${version}/${kind}List`] = listOf(apiVersion, kind, arb);
    }
  }
  return out;
}
