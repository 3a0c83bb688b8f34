/** Manifests shared by the in-process and end-to-end tests of `capi-kit phase`. */

const infraRef = (kind: string, name: string) =>
  `    apiVersion: infrastructure.cluster.x-k8s.io/v1alpha2\n    kind: ${kind}\n    name: ${name}`;

/** A v1alpha2 Cluster, three v1alpha2 Machines, a Secret and a v1alpha1 Machine. */
export const mixedManifest = `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Cluster
metadata:
  name: prod
  namespace: infra
spec:
  infrastructureRef:
${infraRef('AWSCluster', 'prod')}
status:
  infrastructureReady: true
---
# deleting beats failed, which beats running
apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata:
  name: prod-cp-0
  namespace: infra
  deletionTimestamp: "2020-03-01T10:00:00Z"
spec:
  bootstrap:
    data: ""
  infrastructureRef:
${infraRef('AWSMachine', 'prod-cp-0')}
status:
  phase: running
  infrastructureReady: true
  nodeRef: {kind: Node, name: ip-10-0-0-1}
  errorReason: CreateError
---
# errors cleared, nothing ready: failed is kept
apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata:
  name: prod-md-0
  namespace: infra
spec:
  bootstrap:
    configRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1alpha2, kind: KubeadmConfig, name: prod-md-0}
  infrastructureRef:
${infraRef('AWSMachine', 'prod-md-0')}
status:
  phase: failed
---
# a new Machine whose bootstrap data is inline
apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata:
  name: prod-md-1
  namespace: infra
spec:
  bootstrap:
    data: I2Nsb3VkLWNvbmZpZw==
  infrastructureRef:
${infraRef('AWSMachine', 'prod-md-1')}
---
apiVersion: v1
kind: Secret
metadata:
  name: prod-kubeconfig
  namespace: infra
---
apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata:
  name: legacy-0
spec:
  providerSpec: {}
status:
  phase: Terminating
`;

export const mixedJsonLines = [
  { kind: 'Cluster', name: 'prod', namespace: 'infra', phase: 'provisioned' },
  { kind: 'Machine', name: 'prod-cp-0', namespace: 'infra', phase: 'deleting' },
  { kind: 'Machine', name: 'prod-md-0', namespace: 'infra', phase: 'failed' },
  { kind: 'Machine', name: 'prod-md-1', namespace: 'infra', phase: 'provisioning' },
  { kind: 'Machine', name: 'legacy-0', namespace: '', phase: 'deleting' },
]
  .map((row) => `${JSON.stringify(row)}\n`)
  .join('');

/** The second document's status.bootstrapReady is a string, which the schema rejects. */
export const badMachineManifest = `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Cluster
metadata: {name: ok}
---
apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata: {name: bad, namespace: default}
spec:
  bootstrap: {data: ""}
  infrastructureRef:
${infraRef('AWSMachine', 'bad')}
status:
  bootstrapReady: "yes"
`;
