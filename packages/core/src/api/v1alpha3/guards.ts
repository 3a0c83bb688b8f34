import type * as t from 'io-ts';
import { guardsFor } from '../schema/guards-for.js';
import { type Cluster, ClusterCodec, type ClusterList, ClusterListCodec } from './cluster.js';
import { type Machine, MachineCodec, type MachineList, MachineListCodec } from './machine.js';
import {
  type MachineDeployment,
  MachineDeploymentCodec,
  type MachineDeploymentList,
  MachineDeploymentListCodec,
} from './machinedeployment.js';
import {
  type MachineHealthCheck,
  MachineHealthCheckCodec,
  type MachineHealthCheckList,
  MachineHealthCheckListCodec,
} from './machinehealthcheck.js';
import { type MachineSet, MachineSetCodec, type MachineSetList, MachineSetListCodec } from './machineset.js';

/** Every object of this version, discriminated by `kind`. */
export type KnownObject =
  | Cluster
  | ClusterList
  | Machine
  | MachineList
  | MachineSet
  | MachineSetList
  | MachineDeployment
  | MachineDeploymentList
  | MachineHealthCheck
  | MachineHealthCheckList;

/** The codec of each kind, by kind name. */
export const codecs = {
  Cluster: ClusterCodec,
  ClusterList: ClusterListCodec,
  Machine: MachineCodec,
  MachineList: MachineListCodec,
  MachineSet: MachineSetCodec,
  MachineSetList: MachineSetListCodec,
  MachineDeployment: MachineDeploymentCodec,
  MachineDeploymentList: MachineDeploymentListCodec,
  MachineHealthCheck: MachineHealthCheckCodec,
  MachineHealthCheckList: MachineHealthCheckListCodec,
} as const satisfies Record<KnownObject['kind'], t.Mixed>;

// Type guards: a full (lenient) check of the value, not just of apiVersion and kind.
export const {
  isCluster,
  isClusterList,
  isMachine,
  isMachineList,
  isMachineSet,
  isMachineSetList,
  isMachineDeployment,
  isMachineDeploymentList,
  isMachineHealthCheck,
  isMachineHealthCheckList,
} = guardsFor(codecs);
