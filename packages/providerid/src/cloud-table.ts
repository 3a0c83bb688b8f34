/**
 * The one table of clouds: every grammar in `clouds/`, in the order `clouds()` lists them
 * (major clouds first). Adding a cloud is a module in `clouds/` and a row here.
 */
import { alibabaProviderID } from './clouds/alibaba.js';
import { awsProviderID } from './clouds/aws.js';
import { azureProviderID } from './clouds/azure.js';
import { baiduCloudProviderID } from './clouds/baiducloud.js';
import { bizflyCloudProviderID } from './clouds/bizflycloud.js';
import { brightboxProviderID } from './clouds/brightbox.js';
import { civoProviderID } from './clouds/civo.js';
import { cloudstackProviderID } from './clouds/cloudstack.js';
import { digitaloceanProviderID } from './clouds/digitalocean.js';
import { dockerProviderID } from './clouds/docker.js';
import { equinixMetalProviderID } from './clouds/equinixmetal.js';
import { exoscaleProviderID } from './clouds/exoscale.js';
import { gceProviderID } from './clouds/gce.js';
import { hetznerProviderID } from './clouds/hetzner.js';
import { ibmProviderID } from './clouds/ibm.js';
import { ibmPowerVSProviderID } from './clouds/ibm-powervs.js';
import { inMemoryProviderID } from './clouds/inmemory.js';
import { ionosCloudProviderID } from './clouds/ionoscloud.js';
import { kamateraProviderID } from './clouds/kamatera.js';
import { kindProviderID } from './clouds/kind.js';
import { kubemarkProviderID } from './clouds/kubemark.js';
import { kubevirtProviderID } from './clouds/kubevirt.js';
import { kwokProviderID } from './clouds/kwok.js';
import { linodeProviderID } from './clouds/linode.js';
import { metal3ProviderID } from './clouds/metal3.js';
import { nutanixProviderID } from './clouds/nutanix.js';
import { ociProviderID } from './clouds/oci.js';
import { openstackProviderID } from './clouds/openstack.js';
import { scalewayProviderID } from './clouds/scaleway.js';
import { tencentCloudProviderID } from './clouds/tencentcloud.js';
import { uthoProviderID } from './clouds/utho.js';
import { volcengineProviderID } from './clouds/volcengine.js';
import { vsphereProviderID } from './clouds/vsphere.js';
import { vultrProviderID } from './clouds/vultr.js';
import type { CloudProviderIDGrammar } from './types.js';

/** Every cloud grammar capi-kit ships. */
export const allProviderIDGrammars: readonly CloudProviderIDGrammar[] = [
  awsProviderID,
  gceProviderID,
  azureProviderID,
  vsphereProviderID,
  openstackProviderID,
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
