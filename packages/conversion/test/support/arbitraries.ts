import fc from 'fast-check';

// Generators for the round-trip properties. They aim at what makes conversion hard: keys
// that get renamed (and keys already carrying the new name), empty error strings, free-text
// phases, fields with no home in the other version, unknown fields, List items without
// apiVersion. Objects are built from the Go types and CRDs, not from the converter.

type Model = Record<string, fc.Arbitrary<unknown>>;
export type Obj = Record<string, unknown>;

/** Every `required` field and any subset of the `optional` ones. */
export function obj(required: Model, optional: Model = {}): fc.Arbitrary<Obj> {
  return fc.record(
    { ...required, ...optional },
    { requiredKeys: Object.keys(required) },
  ) as fc.Arbitrary<Obj>;
}

const small = { maxLength: 3 } as const;
export const name = fc.stringMatching(/^[a-z]([a-z0-9-]{0,12}[a-z0-9])?$/);
const text = fc.oneof(fc.constant(''), fc.string({ maxLength: 10 }));
const count = fc.integer({ min: 0, max: 100 });
const time = fc.constantFrom('2019-08-01T10:00:00Z', '2019-09-30T23:59:59Z', '2020-01-02T03:04:05Z');

/** A small JSON value with safe keys, for opaque fields (providerStatus, unknown fields). */
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 2 }),
    fc.dictionary(name, tie('value'), { maxKeys: 3 }),
  ),
})).value;

const V1_CLUSTER_LABEL = 'cluster.k8s.io/cluster-name';
const V2_CLUSTER_LABEL = 'cluster.x-k8s.io/cluster-name';
const CP_LABEL = 'cluster.x-k8s.io/control-plane';

/** Label keys: the renamed ones (both spellings), the control-plane label, ordinary ones. */
const labelKey = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(V1_CLUSTER_LABEL, V2_CLUSTER_LABEL, CP_LABEL, 'set', 'machine-template-hash'),
  },
  { weight: 2, arbitrary: name },
);
const labels = fc.dictionary(labelKey, fc.oneof(name, fc.constant(''), fc.constant('true')), { maxKeys: 4 });
const annotations = fc.dictionary(
  fc.oneof(
    fc.constantFrom('cluster.k8s.io/delete-machine', 'machinedeployment.clusters.k8s.io/revision'),
    name,
  ),
  text,
  { maxKeys: 3 },
);
const finalizers = fc.array(
  fc.constantFrom(
    'cluster.cluster.k8s.io',
    'machine.cluster.k8s.io',
    'cluster.cluster.x-k8s.io',
    'machine.cluster.x-k8s.io',
    'foregroundDeletion',
  ),
  small,
);
const ownerReference = obj(
  {
    apiVersion: fc.constantFrom('cluster.k8s.io/v1alpha1', 'cluster.x-k8s.io/v1alpha2', 'apps/v1'),
    kind: fc.constantFrom('MachineSet', 'MachineDeployment', 'Cluster', 'ReplicaSet'),
    name,
    uid: fc.uuid(),
  },
  // Kubernetes allows one controller reference per object; these never claim to be it.
  { controller: fc.constant(false), blockOwnerDeletion: fc.boolean() },
);

/** Top-level metadata; `name` always set (plug-ins name their objects after it). */
const objectMeta = obj(
  { name },
  {
    namespace: name,
    uid: fc.uuid(),
    resourceVersion: fc.nat().map(String),
    generation: fc.integer({ min: 1, max: 100 }),
    creationTimestamp: time,
    labels,
    annotations,
    finalizers,
    ownerReferences: fc.array(ownerReference, small),
  },
);

/** ObjectMeta as v1alpha1 allowed it inside specs: full, so fields outside the v1alpha2 subset occur. */
const fullEmbeddedMeta = obj(
  {},
  {
    name,
    generateName: name.map((n) => `${n}-`),
    namespace: name,
    labels,
    annotations,
    uid: fc.uuid(),
    creationTimestamp: time,
  },
);
const subsetMeta = obj(
  {},
  {
    name,
    generateName: name.map((n) => `${n}-`),
    namespace: name,
    labels,
    annotations,
    ownerReferences: fc.array(ownerReference, small),
  },
);

const objectRef = obj(
  {
    apiVersion: fc.constantFrom(
      'infrastructure.cluster.x-k8s.io/v1alpha2',
      'bootstrap.cluster.x-k8s.io/v1alpha2',
    ),
    kind: fc.constantFrom('AWSMachine', 'VSphereMachine', 'KubeadmConfig', 'AWSMachineTemplate'),
    name,
  },
  { namespace: name, uid: fc.uuid() },
);
const nodeRef = obj({ kind: fc.constant('Node'), name }, { apiVersion: fc.constant('v1'), uid: fc.uuid() });
const errorReason = fc.constantFrom('', 'InvalidConfiguration', 'CreateError', 'DeleteError');
const errorMessage = fc.oneof(fc.constant(''), text);
const address = obj({ type: fc.constantFrom('InternalIP', 'ExternalIP', 'Hostname'), address: fc.ipV4() });
const selector = obj(
  {},
  {
    matchLabels: labels,
    matchExpressions: fc.array(
      obj(
        { key: labelKey, operator: fc.constantFrom('In', 'NotIn', 'Exists') },
        { values: fc.array(name, small) },
      ),
      { maxLength: 2 },
    ),
  },
);
const extra = { extraField: json };

// ---- provider specs ----

const awsRef = fc.oneof(
  obj({ id: fc.constantFrom('ami-0a1b2c3d', 'subnet-0123', 'sg-42') }),
  obj({ filters: fc.array(obj({ name, values: fc.array(name, small) }), small) }),
);
const kubeadm = obj(
  {},
  {
    init: obj(
      {},
      { nodeRegistration: obj({}, { name, kubeletExtraArgs: fc.dictionary(name, name, { maxKeys: 2 }) }) },
    ),
    join: obj(
      {},
      { nodeRegistration: obj({}, { name, kubeletExtraArgs: fc.dictionary(name, name, { maxKeys: 2 }) }) },
    ),
  },
);
const files = fc.array(
  obj({
    path: fc.constantFrom('/etc/motd', '/etc/kubernetes/x.yaml'),
    owner: fc.constant('root:root'),
    permissions: fc.constant('0644'),
    content: text,
  }),
  small,
);

export const awsMachineSpec = obj(
  {
    apiVersion: fc.constantFrom('awsprovider/v1alpha1', 'awsprovider.k8s.io/v1alpha1'),
    kind: fc.constant('AWSMachineProviderSpec'),
  },
  {
    ami: awsRef,
    imageLookupOrg: fc.constant('258751437250'),
    instanceType: fc.constantFrom('t3.large', 'm5.xlarge'),
    additionalTags: fc.dictionary(name, name, { maxKeys: 2 }),
    iamInstanceProfile: name,
    publicIP: fc.boolean(),
    additionalSecurityGroups: fc.array(awsRef, small),
    availabilityZone: fc.constantFrom('us-east-1a', 'eu-west-1b'),
    subnet: awsRef,
    keyName: name,
    rootDeviceSize: fc.integer({ min: 8, max: 500 }),
    kubeadmConfiguration: kubeadm,
    additionalUserDataFiles: files,
    ...extra,
  },
);

const keyPair = obj({
  cert: fc.constant('LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t'),
  key: fc.constant('LS0tLS1CRUdJTiBSU0EgS0VZLS0tLS0='),
});
export const awsClusterSpec = obj(
  { apiVersion: fc.constant('awsprovider/v1alpha1'), kind: fc.constant('AWSClusterProviderSpec') },
  {
    networkSpec: obj({}, { vpc: obj({}, { id: name, cidrBlock: fc.constant('10.0.0.0/16') }) }),
    region: fc.constantFrom('us-east-1', 'eu-west-1'),
    sshKeyName: name,
    caKeyPair: keyPair,
    saKeyPair: keyPair,
    clusterConfiguration: obj({}, { kubernetesVersion: fc.constant('v1.14.4'), clusterName: name }),
    additionalUserDataFiles: files,
  },
);

// vCenter credentials: names, any code points, and text with a lone surrogate (which has no
// exact UTF-8 form, so it cannot go into a Secret and must stay in the stash).
const credential = fc.oneof(
  name,
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('\uD800lone', 'p\u00e4ss\u202e', ''),
);
export const vsphereV04ClusterSpec = obj(
  {
    apiVersion: fc.constant('vsphere.cluster.k8s.io/v1alpha1'),
    kind: fc.constant('VsphereClusterProviderSpec'),
  },
  {
    server: name,
    username: credential,
    password: credential,
    insecure: fc.boolean(),
    sshAuthorizedKeys: fc.array(name, small),
    caKeyPair: keyPair,
  },
);
export const vsphereV03ClusterSpec = obj(
  {
    apiVersion: fc.constant('vsphereproviderconfig/v1alpha1'),
    kind: fc.constant('VsphereClusterProviderConfig'),
    vsphereServer: name,
  },
  { vsphereUser: credential, vspherePassword: credential, vsphereCredentialSecret: name },
);
export const clusterProviderSpec = fc.oneof(awsClusterSpec, vsphereV04ClusterSpec, vsphereV03ClusterSpec);

const vsphereNetwork = obj({
  devices: fc.array(obj({ networkName: name }, { dhcp4: fc.boolean(), dhcp6: fc.boolean() }), {
    minLength: 1,
    maxLength: 2,
  }),
});
export const vsphereV04MachineSpec = obj(
  {
    apiVersion: fc.constant('vsphere.cluster.k8s.io/v1alpha1'),
    kind: fc.constant('VsphereMachineProviderSpec'),
    datacenter: name,
    template: name,
    network: vsphereNetwork,
  },
  {
    machineRef: name,
    numCPUs: fc.integer({ min: 1, max: 16 }),
    numCoresPerSocket: fc.integer({ min: 1, max: 4 }),
    memoryMiB: fc.integer({ min: 1024, max: 65536 }),
    diskGiB: fc.integer({ min: 10, max: 200 }),
    trustedCerts: fc.array(fc.constant('LS0tLS1CRUdJTi0tLS0t'), small),
    ntpServers: fc.array(fc.constantFrom('pool.ntp.org', 'time.google.com'), small),
    kubeadmConfiguration: kubeadm,
  },
);
export const vsphereV03MachineSpec = obj(
  {
    apiVersion: fc.constant('vsphereproviderconfig/v1alpha1'),
    kind: fc.constant('VsphereMachineProviderConfig'),
    machineSpec: obj(
      {
        datacenter: name,
        datastore: name,
        network: vsphereNetwork,
        template: name,
        disks: fc.array(obj({}, { diskSizeGB: count }), small),
      },
      {
        resourcePool: name,
        vmFolder: name,
        numCPUs: count,
        memoryMB: count,
        diskGiB: count,
        ntpServers: fc.array(name, small),
      },
    ),
  },
  { kubeadmConfiguration: kubeadm },
);
export const machineProviderSpec = fc.oneof(awsMachineSpec, vsphereV04MachineSpec, vsphereV03MachineSpec);

// ---- cluster.k8s.io/v1alpha1 ----

const V1 = 'cluster.k8s.io/v1alpha1';
const V2 = 'cluster.x-k8s.io/v1alpha2';
const versionsV1 = obj(
  { kubelet: fc.constantFrom('v1.14.4', 'v1.15.0', '') },
  { controlPlane: fc.constantFrom('v1.14.4', '') },
);

/** Inline, or by reference to a MachineClass (the tests resolve every class name). */
const providerSpecV1 = fc.oneof(
  { weight: 4, arbitrary: obj({ value: machineProviderSpec }) },
  {
    weight: 1,
    arbitrary: obj({
      valueFrom: obj({
        machineClass: obj({ name }, { namespace: name, provider: fc.constantFrom('aws', '') }),
      }),
    }),
  },
);

const machineSpecV1 = obj(
  { providerSpec: providerSpecV1 },
  {
    metadata: fullEmbeddedMeta,
    taints: fc.array(
      obj({ key: name, effect: fc.constantFrom('NoSchedule', 'NoExecute') }, { value: text }),
      small,
    ),
    versions: versionsV1,
    configSource: obj({ configMap: obj({ namespace: name, name, kubeletConfigKey: name }) }),
    providerID: fc.constantFrom('aws:///us-east-1a/i-0abc', 'vsphere://4237a9b4-1d2f'),
    ...extra,
  },
);
const machineStatusV1 = obj(
  {},
  {
    nodeRef,
    lastUpdated: time,
    versions: versionsV1,
    errorReason,
    errorMessage,
    providerStatus: json,
    addresses: fc.array(address, small),
    conditions: fc.array(
      obj({ type: fc.constantFrom('Ready'), status: fc.constantFrom('True', 'False') }),
      small,
    ),
    lastOperation: obj({}, { description: text, state: text, type: fc.constantFrom('Create', 'Delete') }),
    phase: fc.constantFrom(
      'Running',
      'running',
      'Creating',
      'Terminating',
      'Failed',
      'Warming up',
      '',
      'Deleted',
    ),
  },
);
const templateV1 = obj({}, { metadata: fullEmbeddedMeta, spec: machineSpecV1 });

function typed(apiVersion: string, kind: string, body: Model, required: Model = {}): fc.Arbitrary<Obj> {
  return obj(
    { apiVersion: fc.constant(apiVersion), kind: fc.constant(kind), metadata: objectMeta, ...required },
    body,
  );
}

/**
 * The object with each MachineClass reference in its own namespace, or in none when it has
 * none. A stash never points a reference into another namespace (stash-rules.ts): one
 * elsewhere is left out of the stash with a warning, and no round trip could give it back
 * (stash-security.test.ts shows that case).
 */
function ownNamespaceClasses(object: Obj): Obj {
  const copy = JSON.parse(JSON.stringify(object)) as Obj;
  const namespace = (copy.metadata as Obj | undefined)?.namespace;
  const own = typeof namespace === 'string' && namespace !== '' ? namespace : undefined;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [key, inner] of Object.entries(value as Obj)) {
      if (key === 'machineClass' && typeof inner === 'object' && inner !== null && 'namespace' in inner) {
        const ref = inner as Obj;
        if (own === undefined) delete ref.namespace;
        else ref.namespace = own;
      }
      walk(inner);
    }
  };
  walk(copy);
  return copy;
}

export const v1alpha1 = {
  Cluster: typed(V1, 'Cluster', {
    spec: obj(
      {
        clusterNetwork: obj({
          services: obj({ cidrBlocks: fc.array(fc.constantFrom('10.96.0.0/12'), small) }),
          pods: obj({ cidrBlocks: fc.array(fc.constantFrom('192.168.0.0/16'), small) }),
          serviceDomain: fc.constantFrom('cluster.local', ''),
        }),
      },
      { providerSpec: obj({}, { value: clusterProviderSpec }) },
    ),
    status: obj(
      {},
      {
        apiEndpoints: fc.array(obj({ host: name, port: fc.integer({ min: 1, max: 65535 }) }), small),
        errorReason,
        errorMessage,
        providerStatus: json,
      },
    ),
  }),
  Machine: typed(V1, 'Machine', { status: machineStatusV1 }, { spec: machineSpecV1 }).map(
    ownNamespaceClasses,
  ),
  MachineSet: typed(V1, 'MachineSet', {
    spec: obj(
      { selector },
      {
        replicas: count,
        minReadySeconds: count,
        deletePolicy: fc.constantFrom('Random', 'Newest', 'Oldest'),
        template: templateV1,
      },
    ),
    status: obj(
      { replicas: count },
      { fullyLabeledReplicas: count, readyReplicas: count, errorReason, errorMessage },
    ),
  }).map(ownNamespaceClasses),
  MachineDeployment: typed(V1, 'MachineDeployment', {
    spec: obj(
      { selector, template: templateV1 },
      {
        replicas: count,
        strategy: obj(
          {},
          {
            type: fc.constant('RollingUpdate'),
            rollingUpdate: obj({}, { maxSurge: fc.oneof(count, fc.constant('25%')) }),
          },
        ),
        revisionHistoryLimit: count,
        paused: fc.boolean(),
      },
    ),
    status: obj(
      {},
      { observedGeneration: count, replicas: count, updatedReplicas: count, unavailableReplicas: count },
    ),
  }).map(ownNamespaceClasses),
};

// ---- cluster.x-k8s.io/v1alpha2 ----

const machineSpecV2 = obj(
  {
    bootstrap: obj({}, { configRef: objectRef, data: fc.constantFrom('', 'I2Nsb3VkLWNvbmZpZw==') }),
    infrastructureRef: objectRef,
  },
  {
    metadata: subsetMeta,
    version: fc.constantFrom('v1.15.3', 'v1.16.0', ''),
    providerID: fc.constant('aws:///us-east-1a/i-0abc'),
    ...extra,
  },
);
const templateV2 = obj({}, { metadata: subsetMeta, spec: machineSpecV2 });
const selectorString = fc.constantFrom('app=web', 'cluster.x-k8s.io/cluster-name=c1');

export const v1alpha2 = {
  Cluster: typed(V2, 'Cluster', {
    spec: obj(
      {},
      {
        clusterNetwork: obj(
          {},
          {
            apiServerPort: fc.integer({ min: 1, max: 65535 }),
            services: obj({ cidrBlocks: fc.array(fc.constant('10.96.0.0/12'), small) }),
            pods: obj({ cidrBlocks: fc.array(fc.constant('192.168.0.0/16'), small) }),
            serviceDomain: fc.constant('cluster.local'),
          },
        ),
        infrastructureRef: objectRef,
      },
    ),
    status: obj(
      {},
      {
        apiEndpoints: fc.array(obj({ host: name, port: fc.integer({ min: 1, max: 65535 }) }), small),
        errorReason,
        errorMessage,
        phase: fc.constantFrom('pending', 'provisioning', 'provisioned', 'deleting', 'failed', ''),
        infrastructureReady: fc.boolean(),
        controlPlaneInitialized: fc.boolean(),
      },
    ),
  }),
  Machine: typed(
    V2,
    'Machine',
    {
      status: obj(
        {},
        {
          nodeRef,
          lastUpdated: time,
          version: fc.constantFrom('v1.15.3', ''),
          errorReason,
          errorMessage,
          addresses: fc.array(address, small),
          phase: fc.constantFrom('pending', 'running', 'failed', 'deleted', '', 'Odd'),
          bootstrapReady: fc.boolean(),
          infrastructureReady: fc.boolean(),
        },
      ),
    },
    { spec: machineSpecV2 },
  ),
  MachineSet: typed(V2, 'MachineSet', {
    spec: obj(
      { selector },
      { replicas: count, deletePolicy: fc.constantFrom('Random', 'Newest'), template: templateV2 },
    ),
    status: obj(
      { replicas: count },
      { selector: selectorString, readyReplicas: count, errorReason, errorMessage },
    ),
  }),
  MachineDeployment: typed(V2, 'MachineDeployment', {
    spec: obj({ selector, template: templateV2 }, { replicas: count, paused: fc.boolean() }),
    status: obj({}, { selector: selectorString, replicas: count, updatedReplicas: count }),
  }),
};

/** A List of `item`s; items sometimes leave out apiVersion and kind (typed Go clients do). */
export function listOf(apiVersion: string, kind: string, item: fc.Arbitrary<Obj>): fc.Arbitrary<Obj> {
  const listItem = fc.tuple(item, fc.boolean()).map(([value, bare]) => {
    if (!bare) return value;
    const { apiVersion: _a, kind: _k, ...rest } = value;
    return rest;
  });
  return obj(
    {
      apiVersion: fc.constant(apiVersion),
      kind: fc.constant(`${kind}List`),
      items: fc.array(listItem, { maxLength: 4 }),
    },
    { metadata: obj({}, { resourceVersion: fc.nat().map(String) }) },
  );
}
