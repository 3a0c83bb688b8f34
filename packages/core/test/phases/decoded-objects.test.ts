import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeWith } from '../../src/index.js';
import { readManifest } from '../../src/manifest/index.js';
import {
  type ClusterPhaseSource,
  clusterPhase,
  type MachinePhaseSource,
  machinePhase,
  normalizeV1alpha1Phase,
} from '../../src/phases/index.js';
import * as v1alpha1 from '../../src/v1alpha1/index.js';
import * as v1alpha2 from '../../src/v1alpha2/index.js';

const manifest = `apiVersion: cluster.x-k8s.io/v1alpha2
kind: Machine
metadata:
  name: web-0
  namespace: default
  labels: {cluster.x-k8s.io/cluster-name: web}
spec:
  bootstrap:
    configRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1alpha2, kind: KubeadmConfig, name: web-0}
    data: I2Nsb3VkLWNvbmZpZw==
  infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1alpha2, kind: AWSMachine, name: web-0}
  providerID: aws:///us-east-1a/i-0123456789abcdef0
status:
  phase: provisioned
  bootstrapReady: true
  infrastructureReady: true
  nodeRef: {kind: Node, name: ip-10-0-0-7.ec2.internal, uid: 8f7e}
  addresses: [{type: InternalIP, address: 10.0.0.7}]
---
apiVersion: cluster.x-k8s.io/v1alpha2
kind: Cluster
metadata: {name: web, namespace: default}
spec:
  infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1alpha2, kind: AWSCluster, name: web}
status:
  phase: provisioning
  infrastructureReady: false
  controlPlaneInitialized: false
---
apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: old-0}
spec: {providerSpec: {}}
status: {phase: Creating}
`;

function documents() {
  const docs = readManifest(manifest);
  if (E.isLeft(docs)) throw new Error(JSON.stringify(docs.left));
  return docs.right.map((doc) => doc.value);
}

function decoded<A>(codec: Parameters<typeof decodeWith<A>>[0], value: unknown): A {
  const result = decodeWith(codec, value);
  if (E.isLeft(result)) throw new Error(result.left.map((e) => e.message).join('\n'));
  return result.right;
}

describe('phases of objects decoded with the schema codecs', () => {
  it('accepts the decoded v1alpha2 types as they are', () => {
    const [m, c] = documents();
    const machine: MachinePhaseSource = decoded(v1alpha2.MachineCodec, m);
    const cluster: ClusterPhaseSource = decoded(v1alpha2.ClusterCodec, c);
    expect(machinePhase(machine)).toBe('running');
    expect(clusterPhase(cluster)).toBe('provisioning');
  });

  it('normalises the status.phase of a decoded v1alpha1 Machine', () => {
    const machine: v1alpha1.Machine = decoded(v1alpha1.MachineCodec, documents()[2]);
    expect(normalizeV1alpha1Phase(machine.status?.phase)).toEqual({
      phase: 'provisioning',
      recognised: true,
      from: 'Creating',
    });
  });
});
