import type { ClusterPhaseSource, MachinePhaseSource } from '../../src/phases/index.js';

/** A deletion timestamp as the API server writes it. */
export const deletedAt = '2020-02-03T04:05:06Z';

export interface MachineShape {
  phase?: string;
  bootstrapReady?: boolean;
  infrastructureReady?: boolean;
  nodeRef?: boolean;
  errorReason?: string;
  errorMessage?: string;
  deleting?: boolean;
  bootstrapData?: string;
}

/** A v1alpha2 Machine with only the fields the phase rules read, as the API server returns it. */
export function machine(shape: MachineShape = {}): MachinePhaseSource {
  return {
    metadata: shape.deleting ? { deletionTimestamp: deletedAt } : {},
    spec: { bootstrap: shape.bootstrapData === undefined ? {} : { data: shape.bootstrapData } },
    status: {
      ...(shape.phase === undefined ? {} : { phase: shape.phase }),
      bootstrapReady: shape.bootstrapReady ?? false,
      infrastructureReady: shape.infrastructureReady ?? false,
      ...(shape.nodeRef ? { nodeRef: { kind: 'Node', name: 'node-1', uid: 'u-1' } } : {}),
      ...(shape.errorReason === undefined ? {} : { errorReason: shape.errorReason }),
      ...(shape.errorMessage === undefined ? {} : { errorMessage: shape.errorMessage }),
    },
  };
}

export interface ClusterShape {
  phase?: string;
  infrastructureRef?: boolean;
  infrastructureReady?: boolean;
  errorReason?: string;
  errorMessage?: string;
  deleting?: boolean;
}

export function cluster(shape: ClusterShape = {}): ClusterPhaseSource {
  return {
    metadata: shape.deleting ? { deletionTimestamp: deletedAt } : {},
    spec: shape.infrastructureRef
      ? {
          infrastructureRef: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha2',
            kind: 'AWSCluster',
            name: 'c1',
          },
        }
      : {},
    status: {
      ...(shape.phase === undefined ? {} : { phase: shape.phase }),
      infrastructureReady: shape.infrastructureReady ?? false,
      ...(shape.errorReason === undefined ? {} : { errorReason: shape.errorReason }),
      ...(shape.errorMessage === undefined ? {} : { errorMessage: shape.errorMessage }),
    },
  };
}
