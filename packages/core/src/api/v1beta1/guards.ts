import type * as t from 'io-ts';
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
export const isCluster = (u: unknown): u is Cluster => ClusterCodec.is(u);
export const isClusterList = (u: unknown): u is ClusterList => ClusterListCodec.is(u);
export const isMachine = (u: unknown): u is Machine => MachineCodec.is(u);
export const isMachineList = (u: unknown): u is MachineList => MachineListCodec.is(u);
export const isMachineSet = (u: unknown): u is MachineSet => MachineSetCodec.is(u);
export const isMachineSetList = (u: unknown): u is MachineSetList => MachineSetListCodec.is(u);
export const isMachineDeployment = (u: unknown): u is MachineDeployment => MachineDeploymentCodec.is(u);
export const isMachineDeploymentList = (u: unknown): u is MachineDeploymentList =>
  MachineDeploymentListCodec.is(u);
export const isMachineHealthCheck = (u: unknown): u is MachineHealthCheck => MachineHealthCheckCodec.is(u);
export const isMachineHealthCheckList = (u: unknown): u is MachineHealthCheckList =>
  MachineHealthCheckListCodec.is(u);
