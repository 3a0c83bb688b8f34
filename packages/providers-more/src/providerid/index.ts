import type { CloudProviderIDGrammar } from '@capi-kit/core/providerid';
import { alibabaProviderID } from './alibaba.js';
import { cloudstackProviderID } from './cloudstack.js';
import { hetznerProviderID } from './hetzner.js';
import { ibmPowerVSProviderID, ibmProviderID } from './ibm.js';
import { kwokProviderID } from './kwok.js';
import { kindProviderID, scalewayProviderID, tencentCloudProviderID } from './located-clouds.js';
import { metal3ProviderID } from './metal3.js';
import { ociProviderID } from './oci.js';
import {
  baiduCloudProviderID,
  bizflyCloudProviderID,
  brightboxProviderID,
  civoProviderID,
  digitaloceanProviderID,
  dockerProviderID,
  equinixMetalProviderID,
  exoscaleProviderID,
  inMemoryProviderID,
  ionosCloudProviderID,
  kamateraProviderID,
  kubemarkProviderID,
  kubevirtProviderID,
  linodeProviderID,
  nutanixProviderID,
  uthoProviderID,
  volcengineProviderID,
  vultrProviderID,
} from './single-token-clouds.js';

export { alibabaProviderID } from './alibaba.js';
export { cloudstackCCMProviderID, cloudstackProviderID } from './cloudstack.js';
export { hetznerBareMetalProviderID, hetznerProviderID } from './hetzner.js';
export { ibmPowerVSProviderID, ibmProviderID } from './ibm.js';
export { kwokProviderID } from './kwok.js';
export { kindProviderID, scalewayProviderID, tencentCloudProviderID } from './located-clouds.js';
export { metal3ProviderID } from './metal3.js';
export { ociProviderID } from './oci.js';
export * from './single-token-clouds.js';

/** Every grammar in this package, in registration order. */
export const moreProviderIDGrammars: readonly CloudProviderIDGrammar[] = [
  digitaloceanProviderID,
  equinixMetalProviderID,
  hetznerProviderID,
  linodeProviderID,
  ibmProviderID,
  ibmPowerVSProviderID,
  alibabaProviderID,
  ociProviderID,
  kubevirtProviderID,
  nutanixProviderID,
  dockerProviderID,
  inMemoryProviderID,
  kindProviderID,
  metal3ProviderID,
  cloudstackProviderID,
  kubemarkProviderID,
  kwokProviderID,
  exoscaleProviderID,
  scalewayProviderID,
  vultrProviderID,
  tencentCloudProviderID,
  kamateraProviderID,
  civoProviderID,
  brightboxProviderID,
  ionosCloudProviderID,
  uthoProviderID,
  bizflyCloudProviderID,
  volcengineProviderID,
  baiduCloudProviderID,
];
