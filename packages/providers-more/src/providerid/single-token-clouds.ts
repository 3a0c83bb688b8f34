import {
  type CloudProviderIDGrammar,
  foldUUID,
  singleTokenGrammar,
  tokenRules,
} from '@capi-kit/core/providerid';

// KubeVirt's cloud provider only accepts VM names of these characters (no dots).
const KUBEVIRT_NAME = /^[0-9A-Za-z_-]+$/;

/*
 * Clouds whose providerID is `<scheme>://<one token>`: one grammar each. Slash counts,
 * integer rules and case folding follow each cloud's own parser (see docs/providerid.md).
 * `bareWhenNamed` marks clouds whose parser only strips the prefix (TrimPrefix), so a
 * bare token is accepted there too; clouds that check the prefix reject bare tokens.
 */
export const digitaloceanProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'digitalocean',
  title: 'DigitalOcean',
  schemes: ['digitalocean'],
  field: 'dropletId',
  rule: tokenRules.int64,
});

/** Equinix Metal; `packet://` is the scheme it had before 2021 and names the same devices. */
export const equinixMetalProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'equinixmetal',
  title: 'Equinix Metal (legacy packet://)',
  schemes: ['equinixmetal', 'packet'],
  field: 'deviceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});

export const linodeProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'linode',
  title: 'Akamai / Linode',
  schemes: ['linode'],
  field: 'linodeId',
  rule: tokenRules.int64,
});

export const kubevirtProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'kubevirt',
  title: 'KubeVirt',
  schemes: ['kubevirt'],
  field: 'vmName',
  rule: { test: (t) => KUBEVIRT_NAME.test(t), expected: 'a VM name of letters, digits, "-" and "_"' },
});

/** Nutanix AHV; the cloud provider writes the VM UUID lower-cased, CAPX keeps its case. */
export const nutanixProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'nutanix',
  title: 'Nutanix AHV',
  schemes: ['nutanix'],
  field: 'uuid',
  rule: { ...tokenRules.opaqueUUID, canonical: foldUUID },
  bareWhenNamed: true,
});

/** Cluster API's Docker provider (CAPD) writes four slashes: `docker:////<container>`. */
export const dockerProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'docker',
  title: 'Docker (CAPD)',
  schemes: ['docker'],
  field: 'containerName',
  rule: tokenRules.opaque,
  slashes: [2],
});

/** CAPD's in-memory backend (scale tests). */
export const inMemoryProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'inmemory',
  title: 'CAPD in-memory backend',
  schemes: ['in-memory'],
  field: 'name',
  rule: tokenRules.opaque,
});

/** kubemark hollow nodes; cluster-api-provider-kubemark documents a four-slash form too. */
export const kubemarkProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'kubemark',
  title: 'kubemark',
  schemes: ['kubemark'],
  field: 'nodeName',
  rule: tokenRules.opaque,
  slashes: [0, 2],
});

/** Exoscale; overridden IDs look like `exoscale://external-<sha256>`. */
export const exoscaleProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'exoscale',
  title: 'Exoscale',
  schemes: ['exoscale'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});

export const vultrProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'vultr',
  title: 'Vultr',
  schemes: ['vultr'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
});

/** Kamatera (cluster-autoscaler); a configured prefix may add a third slash. */
export const kamateraProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'kamatera',
  title: 'Kamatera',
  schemes: ['kamatera'],
  field: 'serverName',
  rule: tokenRules.opaque,
  slashes: [0, 1],
  bareWhenNamed: true,
});

export const civoProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'civo',
  title: 'Civo',
  schemes: ['civo'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});

export const brightboxProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'brightbox',
  title: 'Brightbox',
  schemes: ['brightbox'],
  field: 'serverId',
  rule: tokenRules.opaque,
  bareWhenNamed: true,
});

export const ionosCloudProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'ionoscloud',
  title: 'IONOS Cloud',
  schemes: ['ionos'],
  field: 'serverId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});

export const uthoProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'utho',
  title: 'Utho',
  schemes: ['utho'],
  field: 'instanceId',
  rule: tokenRules.opaque,
  bareWhenNamed: true,
});

export const bizflyCloudProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'bizflycloud',
  title: 'Bizfly Cloud',
  schemes: ['bizflycloud'],
  field: 'instanceId',
  rule: tokenRules.opaqueUUID,
  bareWhenNamed: true,
});

export const volcengineProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'volcengine',
  title: 'Volcengine',
  schemes: ['volcengine'],
  field: 'instanceId',
  rule: tokenRules.opaque,
  bareWhenNamed: true,
});

/** Baidu Cloud Container Engine. */
export const baiduCloudProviderID: CloudProviderIDGrammar = singleTokenGrammar({
  cloud: 'baiducloud',
  title: 'Baidu Cloud (CCE)',
  schemes: ['cce'],
  field: 'instanceId',
  rule: tokenRules.opaque,
});
