import { type ConversionPlugin, generatedKinds } from '@capi-kit/conversion/plugin-kit';

/** Re-exported so packages that list plug-ins can name the type without depending on conversion. */
export type { ConversionPlugin } from '@capi-kit/conversion/plugin-kit';

import { convertAwsCluster } from './cluster.js';
import { awsMachineReferences, convertAwsMachine, convertAwsMachineTemplate } from './machine.js';
import { awsProviderSpecTypes } from './types.js';

/**
 * The AWS conversion plug-in: v1alpha1 AWS providerSpecs (CAPA v0.3.x) → AWSCluster,
 * AWSMachine, AWSMachineTemplate (CAPA v0.4.x, infrastructure.cluster.x-k8s.io/v1alpha2)
 * and KubeadmConfig / KubeadmConfigTemplate (CABPK, bootstrap.cluster.x-k8s.io/v1alpha2).
 */
export const awsConversionPlugin: ConversionPlugin = {
  name: 'aws',
  handles: awsProviderSpecTypes,
  cluster: convertAwsCluster,
  machine: convertAwsMachine,
  machineTemplate: convertAwsMachineTemplate,
  machineReferences: awsMachineReferences,
  generates: generatedKinds('AWSCluster', 'AWSMachine'),
};

export { awsClusterConsumedFields, awsClusterFieldMoves, convertAwsCluster } from './cluster.js';
export {
  awsMachineConsumedFields,
  awsMachineFieldMoves,
  awsMachineReferences,
  convertAwsMachine,
  convertAwsMachineTemplate,
} from './machine.js';
export {
  AWS_CLUSTER_PROVIDER_SPEC,
  AWS_MACHINE_PROVIDER_SPEC,
  AWS_V1ALPHA1_API_VERSIONS,
  awsProviderSpecTypes,
} from './types.js';
