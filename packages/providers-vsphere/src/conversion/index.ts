import { type ConversionPlugin, generatedKinds } from '@capi-kit/conversion/plugin-kit';
import { convertVsphereCluster } from './cluster.js';
import { convertVsphereMachine, convertVsphereMachineTemplate, vsphereMachineReferences } from './machine.js';
import { vsphereProviderSpecTypes } from './types.js';

/**
 * The vSphere conversion plug-in: v1alpha1 vSphere providerSpecs (CAPV v0.3 and v0.4) →
 * VSphereCluster, VSphereMachine, VSphereMachineTemplate (CAPV v0.5,
 * infrastructure.cluster.x-k8s.io/v1alpha2) and KubeadmConfig / KubeadmConfigTemplate.
 */
export const vsphereConversionPlugin: ConversionPlugin = {
  name: 'vsphere',
  handles: vsphereProviderSpecTypes,
  cluster: convertVsphereCluster,
  machine: convertVsphereMachine,
  machineTemplate: convertVsphereMachineTemplate,
  machineReferences: vsphereMachineReferences,
  generates: generatedKinds('VSphereCluster', 'VSphereMachine'),
};

export {
  convertVsphereCluster,
  vsphereClusterConsumedFields,
  vsphereV03ClusterFieldMoves,
  vsphereV04ClusterFieldMoves,
} from './cluster.js';
export {
  convertVsphereMachine,
  convertVsphereMachineTemplate,
  VSPHERE_SSH_USER,
  vsphereMachineReferences,
  vsphereV03MachineFieldMoves,
  vsphereV04MachineFieldMoves,
} from './machine.js';
export {
  VSPHERE_V03_API_VERSIONS,
  VSPHERE_V03_CLUSTER_KIND,
  VSPHERE_V03_MACHINE_KIND,
  VSPHERE_V04_API_VERSIONS,
  VSPHERE_V04_CLUSTER_KIND,
  VSPHERE_V04_MACHINE_KIND,
  vsphereProviderSpecTypes,
} from './types.js';
