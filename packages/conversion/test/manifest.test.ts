import { readFileSync } from 'node:fs';
import { readManifest } from '@capi-kit/core/manifest';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { awsConversionPlugin } from '../../providers-aws/src/conversion/index.js';
import { vsphereConversionPlugin } from '../../providers-vsphere/src/conversion/index.js';
import {
  type ChainVersion,
  type ConversionError,
  convertManifest,
  formatConversionError,
  type ManifestConversion,
  V1ALPHA1,
  V1ALPHA2,
  V1ALPHA3,
  V1BETA2,
} from '../src/index.js';

const plugins = [awsConversionPlugin, vsphereConversionPlugin];
const example = (name: string) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');

function ok(result: E.Either<ConversionError[], ManifestConversion & { text: string }>) {
  if (E.isLeft(result)) throw new Error(result.left.map(formatConversionError).join('\n'));
  return result.right;
}
function errors(result: E.Either<ConversionError[], unknown>): string[] {
  if (E.isRight(result)) throw new Error('expected the conversion to fail');
  return result.left.map(formatConversionError);
}
const values = (text: string) => {
  const read = readManifest(text);
  if (E.isLeft(read)) throw new Error(JSON.stringify(read.left));
  return read.right.map((d) => d.value as Record<string, unknown>);
};
const kindsOf = (docs: readonly unknown[]) =>
  docs.map(
    (d) => `${(d as { kind: string }).kind}/${(d as { metadata?: { name?: string } }).metadata?.name ?? ''}`,
  );

describe('examples', () => {
  it('aws-v1alpha1.yaml: each object is followed by the objects its plug-in made, in input order', () => {
    const { documents, report } = ok(
      convertManifest(example('aws-v1alpha1.yaml'), { to: V1ALPHA2, plugins }),
    );
    expect(kindsOf(documents)).toEqual([
      'Cluster/prod-eu',
      'AWSCluster/prod-eu',
      'MachineList/',
      'AWSMachine/prod-eu-controlplane-0',
      'KubeadmConfig/prod-eu-controlplane-0',
      'AWSMachine/prod-eu-controlplane-1',
      'KubeadmConfig/prod-eu-controlplane-1',
      'MachineDeployment/prod-eu-workers',
      'AWSMachineTemplate/prod-eu-workers',
      'KubeadmConfigTemplate/prod-eu-workers',
    ]);
    expect(report.outputDocuments).toBe(10);
    // The control-plane KubeadmConfig carries the Cluster's kubeadm ClusterConfiguration.
    const kubeadm = documents[4] as { spec: Record<string, unknown> };
    expect(kubeadm.spec.clusterConfiguration).toMatchObject({ clusterName: 'prod-eu' });
    expect(kubeadm.spec.files).toEqual([expect.objectContaining({ path: '/etc/motd' })]);
  });

  it.each(['aws-v1alpha1.yaml', 'vsphere-v1alpha1.yaml', 'machineclass-v1alpha1.yaml'])(
    '%s: converting back restores every Cluster API document exactly',
    (file) => {
      const input = values(example(file));
      const up = ok(convertManifest(example(file), { to: V1ALPHA2, plugins }));
      const down = ok(convertManifest(up.text, { to: V1ALPHA1 }));
      const capi = (docs: readonly unknown[]) =>
        docs.filter((d) => {
          const v = d as { apiVersion: string; kind: string };
          return v.apiVersion === V1ALPHA1 && v.kind !== 'MachineClass';
        });
      expect(capi(down.documents)).toStrictEqual(capi(input));
    },
  );

  it('machineclass-v1alpha1.yaml: the class is resolved, used, and left out', () => {
    const { documents, report } = ok(
      convertManifest(example('machineclass-v1alpha1.yaml'), { to: V1ALPHA2, plugins }),
    );
    expect(kindsOf(documents)).toEqual([
      'MachineDeployment/batch',
      'AWSMachineTemplate/batch',
      'KubeadmConfigTemplate/batch',
      'Machine/batch-canary',
      'AWSMachine/batch-canary',
      'KubeadmConfig/batch-canary',
    ]);
    const template = documents[1] as { spec: { template: { spec: Record<string, unknown> } } };
    expect(template.spec.template.spec).toMatchObject({
      instanceType: 'm5.large',
      sshKeyName: 'team-b',
      publicIP: false,
    });
    const removed = report.documents[0]!.objects[0]!;
    expect(removed).toMatchObject({
      kind: 'MachineClass',
      name: 'm5-large-private',
      action: 'removed',
      warnings: [],
    });
    const md = report.documents.find((d) => d.index === 1)!.objects[0]!;
    expect(md.moves.map((m) => m.from)).toContain(
      'MachineClass team-b/m5-large-private providerSpec.instanceType',
    );
  });
});

const TEMPLATE = `apiVersion: cluster.k8s.io/v1alpha1
kind: MachineSet
metadata:
  name: "\${CLUSTER_NAME}-workers"
  labels:
    cluster.k8s.io/cluster-name: "\${CLUSTER_NAME}"
spec:
  replicas: \${WORKER_COUNT}
  selector:
    matchLabels:
      cluster.k8s.io/cluster-name: "\${CLUSTER_NAME}"
  template:
    metadata:
      labels:
        cluster.k8s.io/cluster-name: "\${CLUSTER_NAME}"
    spec:
      versions:
        kubelet: "\${KUBERNETES_VERSION}"
      providerSpec:
        value:
          apiVersion: vsphereproviderconfig/v1alpha1
          kind: VsphereMachineProviderConfig
          machineSpec:
            datacenter: "\${VSPHERE_DATACENTER}"
            datastore: "\${VSPHERE_DATASTORE}"
            network:
              devices:
                - networkName: "\${VSPHERE_NETWORK}"
                  dhcp4: true
            numCPUs: \${VSPHERE_NUM_CPUS}
            memoryMB: \${VSPHERE_MEM_MIB}
            template: "\${VSPHERE_TEMPLATE}"
`;

describe('stash text', () => {
  it('a stashed value holding DEL or a C1 control is written escaped: the way back reads it (any target)', () => {
    // JSON.stringify escapes only C0 controls; U+0085 or U+007F went into the annotation raw,
    // and the manifest reader refused the converted manifest ("contains the control character").
    const cluster = [
      'apiVersion: cluster.k8s.io/v1alpha1',
      'kind: Cluster',
      'metadata: {name: c, namespace: ns}',
      'spec:',
      '  clusterNetwork: {services: {cidrBlocks: []}, pods: {cidrBlocks: []}, serviceDomain: ""}',
      '  providerSpec:',
      '    value:',
      '      apiVersion: awsprovider/v1alpha1',
      '      kind: AWSClusterProviderSpec',
      '      region: r',
      '      extra: {"next\\u0085line": "del\\u007f", c1: "\\u009f"}',
      '',
    ].join('\n');
    const input = values(cluster);
    for (const to of [V1ALPHA2, V1ALPHA3, V1BETA2] as ChainVersion[]) {
      const up = ok(convertManifest(cluster, { to, plugins }));
      const annotations = (up.documents[0] as { metadata: { annotations: Record<string, string> } }).metadata
        .annotations;
      expect(Object.values(annotations).join('')).not.toMatch(/[\u007f-\u009f]/);
      expect(values(up.text)).toHaveLength(up.documents.length);
      const down = ok(convertManifest(up.text, { to: V1ALPHA1 }));
      expect(down.documents[0]).toStrictEqual(input[0]);
    }
  });
});

describe('templates', () => {
  it('keeps envsubst placeholders as text, in both directions', () => {
    const placeholders = (text: string) => new Set(text.match(/\$\{[A-Z_]+\}/g));
    const up = ok(convertManifest(TEMPLATE, { to: V1ALPHA2, plugins }));
    expect(placeholders(up.text)).toEqual(placeholders(TEMPLATE));
    // Bare placeholders stay bare (a number after envsubst), quoted ones stay quoted.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an envsubst placeholder, on purpose
    expect(up.text).toContain('memoryMiB: ${VSPHERE_MEM_MIB}\n');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an envsubst placeholder, on purpose
    expect(up.text).toContain('replicas: ${WORKER_COUNT}\n');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an envsubst placeholder, on purpose
    expect(up.text).toContain('name: "${CLUSTER_NAME}-workers"\n');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an envsubst placeholder, on purpose
    expect(up.text).toContain('template: "${VSPHERE_TEMPLATE}"\n');
    const down = ok(convertManifest(up.text, { to: V1ALPHA1 }));
    expect(down.documents[0]).toStrictEqual(values(TEMPLATE)[0]);
    // and the text of the way back still has the input's quoting
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an envsubst placeholder, on purpose
    expect(down.text).toContain('kubelet: "${KUBERNETES_VERSION}"\n');
    // The datastore has no VSphereMachine field: the report says so.
    expect(up.report.warnings.join('\n')).toContain('machineSpec.datastore has no v1alpha2 field');
  });

  it('a placeholder written quoted in one place and bare in another keeps each quoting, in both directions', () => {
    // (it was quoted wherever it went once it was quoted anywhere: numCPUs became a string)
    const cpus = '$' + '{CPUS}';
    const text = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata:
  name: m
  namespace: ns
  labels:
    cpus: "${cpus}"
spec:
  providerSpec:
    value:
      apiVersion: vsphere.cluster.k8s.io/v1alpha1
      kind: VsphereMachineProviderSpec
      datacenter: dc
      template: t
      network:
        devices: []
      numCPUs: ${cpus}
`;
    const up = ok(convertManifest(text, { to: V1ALPHA2, plugins }));
    expect(up.text).toContain(`cpus: "${cpus}"\n`);
    expect(up.text).toContain(`numCPUs: ${cpus}\n`);
    const down = ok(convertManifest(up.text, { to: V1ALPHA1 }));
    expect(down.text.split('---\n')[0]).toBe(text);
  });
});

describe('YAML output', () => {
  it('writes the string "<<" quoted, as writeManifest does, with or without placeholders to requote', () => {
    const config = (data: string) => `apiVersion: v1
kind: ConfigMap
metadata: {name: c, labels: {"<<": a}}
data: {${data}}
`;
    for (const text of [config('b: x'), config('b: "$' + '{X}"')]) {
      const out = ok(convertManifest(text, { to: V1ALPHA2 })).text;
      expect(out).toContain('"<<": a\n');
      expect(values(out)).toStrictEqual(values(text));
    }
  });
});

describe('pass-through', () => {
  it('leaves other groups and objects already at the target version unchanged, in place', () => {
    const text = `apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {a: b}
---
apiVersion: cluster.x-k8s.io/v1alpha2
kind: MachineSet
metadata: {name: already}
spec: {selector: {}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1alpha2
kind: AWSMachine
metadata: {name: x}
spec: {instanceType: t3.large}
`;
    const { documents, report } = ok(convertManifest(text, { to: V1ALPHA2, plugins }));
    expect(documents).toStrictEqual(values(text));
    expect(report.documents.map((d) => d.objects[0]!.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
  });

  it('writes JSON, several documents as one v1 List, and reads it back', () => {
    const up = ok(convertManifest(example('aws-v1alpha1.yaml'), { to: V1ALPHA2, plugins, format: 'json' }));
    const parsed = JSON.parse(up.text);
    expect(parsed).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    expect(parsed.items).toHaveLength(10);
    const again = ok(convertManifest(up.text, { to: V1ALPHA2, plugins }));
    expect(again.documents).toStrictEqual(up.documents);
  });
});

describe('bad input: a clear error per failing document, and nothing written', () => {
  it('malformed YAML names the document and line', () => {
    const text = 'apiVersion: v1\nkind: Secret\n---\napiVersion: cluster.k8s.io/v1alpha1\nkind: [Machine\n';
    const [message] = errors(convertManifest(text, { to: V1ALPHA2, plugins }));
    expect(message).toMatch(/^document 2: line \d+, column \d+: \S/);
  });

  it('an unknown kind of a Cluster API version', () => {
    const text = 'apiVersion: cluster.k8s.io/v1alpha1\nkind: MachinePool\nmetadata: {name: p}\n';
    expect(errors(convertManifest(text, { to: V1ALPHA2, plugins }))).toEqual([
      'document 1 (MachinePool p, line 1): kind: unknown cluster.k8s.io/v1alpha1 kind "MachinePool"',
    ]);
  });

  it('a Cluster API version the converter does not know', () => {
    const text = 'apiVersion: cluster.x-k8s.io/v1alpha9\nkind: Machine\nmetadata: {name: m}\n';
    expect(errors(convertManifest(text, { to: V1ALPHA2, plugins }))).toEqual([
      'document 1 (Machine m, line 1): apiVersion: cluster.x-k8s.io/v1alpha9 is not a version this converter knows (cluster.k8s.io/v1alpha1, cluster.x-k8s.io/v1alpha2, cluster.x-k8s.io/v1alpha3, cluster.x-k8s.io/v1alpha4, cluster.x-k8s.io/v1beta1, cluster.x-k8s.io/v1beta2)',
    ]);
  });

  it('mixed versions inside a List', () => {
    const text = `apiVersion: cluster.k8s.io/v1alpha1
kind: MachineList
items:
  - apiVersion: cluster.x-k8s.io/v1alpha2
    kind: Machine
    metadata: {name: m}
`;
    const [message] = errors(convertManifest(text, { to: V1ALPHA2, plugins }));
    expect(message).toContain('document 1 (MachineList, line 1): items[0].apiVersion: mixed versions');
  });

  it('apiVersion or kind that is not a string: named as mistyped, not as missing', () => {
    const text =
      'apiVersion: 5\nkind: Machine\nmetadata: {name: a}\n---\napiVersion: cluster.k8s.io/v1alpha1\nkind: [Machine]\nmetadata: {name: b}\n';
    expect(errors(convertManifest(text, { to: V1ALPHA2, plugins }))).toEqual([
      'document 1 (Machine a, line 1): apiVersion: must be a string, not a number',
      'document 2 (b, line 5): kind: must be a string, not a list',
    ]);
  });

  it('an item of a v1 List is named by its path in the List', () => {
    const text = `apiVersion: v1
kind: List
items:
  - apiVersion: cluster.k8s.io/v1alpha1
    kind: MachineSet
    metadata: {name: fine}
  - 5
  - apiVersion: v1
    kind: List
    items:
      - apiVersion: cluster.k8s.io/v1alpha1
        kind: Machine
        metadata:
          name: m
          annotations: {conversion.capi-kit.dev/data: not json}
`;
    expect(errors(convertManifest(text, { to: V1ALPHA2, plugins }))).toEqual([
      'document 1 (line 1): items[1]: is not an object',
      'document 1 (Machine m, line 1): items[2].items[0].metadata.annotations["conversion.capi-kit.dev/data"]: is not JSON',
    ]);
  });

  it('two Clusters of one name in a List, whose credentials would share one Secret', () => {
    // (the way back would read one Secret for both: the first Cluster's password changed)
    const cluster = (password: string) =>
      `{apiVersion: cluster.k8s.io/v1alpha1, kind: Cluster, metadata: {name: e}, spec: {providerSpec: {value: {apiVersion: vsphere.cluster.k8s.io/v1alpha1, kind: VsphereClusterProviderSpec, password: "${password}"}}}}`;
    const text = `apiVersion: cluster.k8s.io/v1alpha1\nkind: ClusterList\nitems: [${cluster('a')}, ${cluster('b')}]\n`;
    const [message] = errors(convertManifest(text, { to: V1ALPHA2, plugins: [vsphereConversionPlugin] }));
    expect(message).toContain('Secret e-vsphere-credentials would be written twice, with different content');
  });

  it('mixed versions of one object across documents', () => {
    const v1 = `apiVersion: cluster.k8s.io/v1alpha1
kind: MachineSet
metadata: {name: web, namespace: a}
spec: {selector: {}, replicas: 1}
`;
    const v2 = `apiVersion: cluster.x-k8s.io/v1alpha2
kind: MachineSet
metadata: {name: web, namespace: a}
spec: {selector: {}, replicas: 3}
`;
    const [message] = errors(convertManifest(`${v1}---\n${v2}`, { to: V1ALPHA2, plugins }));
    expect(message).toContain(
      'document 2 (MachineSet a/web, line 6): MachineSet a/web would be written twice',
    );
  });

  it('a MachineClass that is not in the manifest', () => {
    const text = example('machineclass-v1alpha1.yaml').split('---\n').slice(1).join('---\n');
    const messages = errors(convertManifest(text, { to: V1ALPHA2, plugins }));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain(
      'document 1 (MachineDeployment team-b/batch, line 1): spec.template.spec.providerSpec.valueFrom.machineClass: MachineClass team-b/m5-large-private is not in this manifest',
    );
    expect(messages[1]).toContain('document 2 (Machine team-b/batch-canary');
  });

  describe('which MachineClass a Machine names, by namespace', () => {
    const machineClass = (namespace: string | undefined, instanceType: string) =>
      `apiVersion: cluster.k8s.io/v1alpha1
kind: MachineClass
metadata: {name: c${namespace === undefined ? '' : `, namespace: ${namespace}`}}
providerSpec: {apiVersion: awsprovider/v1alpha1, kind: AWSMachineProviderSpec, instanceType: ${instanceType}}
`;
    const machine = (namespace: string | undefined) =>
      `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: m${namespace === undefined ? '' : `, namespace: ${namespace}`}}
spec: {providerSpec: {valueFrom: {machineClass: {name: c}}}}
`;
    /** The instance type of the AWSMachine made for the Machine, or the conversion's errors. */
    const resolved = (...documents: string[]) => {
      const result = convertManifest(documents.join('---\n'), { to: V1ALPHA2, plugins });
      if (E.isLeft(result)) return result.left.map(formatConversionError).join('\n');
      const made = result.right.documents.find((d) => (d as { kind?: string }).kind === 'AWSMachine');
      return (made as { spec: { instanceType: string } }).spec.instanceType;
    };

    it('the class of its own namespace first, else the one class of that name without one', () => {
      expect(resolved(machineClass(undefined, 'bare'), machineClass('a', 'own'), machine('a'))).toBe('own');
      expect(resolved(machineClass(undefined, 'bare'), machineClass('b', 'other'), machine('a'))).toBe(
        'bare',
      );
    });

    it('a Machine without a namespace takes the class of that name when there is one only', () => {
      expect(resolved(machineClass('a', 'only'), machine(undefined))).toBe('only');
      expect(resolved(machineClass('a', 'x'), machineClass('b', 'y'), machine(undefined))).toContain(
        'MachineClass c is not in this manifest',
      );
    });

    it('two classes of one name without a namespace stand in for none', () => {
      expect(resolved(machineClass(undefined, 'x'), machineClass(undefined, 'y'), machine('a'))).toContain(
        'MachineClass a/c is not in this manifest',
      );
      // (the first of them is the exact match of a Machine without a namespace)
      expect(resolved(machineClass(undefined, 'x'), machineClass(undefined, 'y'), machine(undefined))).toBe(
        'x',
      );
    });
  });

  it('a providerSpec no plug-in handles names its apiVersion and kind', () => {
    const text = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: gce-0}
spec:
  providerSpec:
    value: {apiVersion: gceproviderconfig/v1alpha1, kind: GCEMachineProviderSpec}
`;
    expect(errors(convertManifest(text, { to: V1ALPHA2, plugins }))).toEqual([
      'document 1 (Machine gce-0, line 1): spec.providerSpec.value: no conversion plug-in handles providerSpec apiVersion "gceproviderconfig/v1alpha1" kind "GCEMachineProviderSpec" (loaded: aws, vsphere)',
    ]);
  });

  it('a Machine without providerSpec cannot get the references v1alpha2 requires', () => {
    const text = 'apiVersion: cluster.k8s.io/v1alpha1\nkind: Machine\nmetadata: {name: m}\nspec: {}\n';
    const [message] = errors(convertManifest(text, { to: V1ALPHA2, plugins }));
    expect(message).toContain('spec.providerSpec: has neither value nor valueFrom.machineClass');
  });

  it('a Machine whose providerSpec value is no object is told so, at the value', () => {
    const text =
      'apiVersion: cluster.k8s.io/v1alpha1\nkind: Machine\nmetadata: {name: m}\nspec: {providerSpec: {value: [a]}}\n';
    const [message] = errors(convertManifest(text, { to: V1ALPHA2, plugins }));
    // (before: "spec.providerSpec: has neither value nor valueFrom.machineClass", beside a value)
    expect(message).toContain(
      'spec.providerSpec.value: is a list, not an object, so there is nothing to build the required spec.infrastructureRef and spec.bootstrap from',
    );
  });

  it('a plug-in refusal carries the plug-in name', () => {
    const text = `apiVersion: cluster.k8s.io/v1alpha1
kind: Machine
metadata: {name: m}
spec:
  providerSpec:
    value: {apiVersion: vsphere.cluster.k8s.io/v1alpha1, kind: VsphereMachineProviderSpec, datacenter: dc}
`;
    const [message] = errors(convertManifest(text, { to: V1ALPHA2, plugins }));
    expect(message).toContain('vsphere plug-in: template, network missing: VSphereMachine requires them');
  });

  it('every failing document is reported, not only the first', () => {
    const bad = 'apiVersion: cluster.k8s.io/v1alpha1\nkind: Machine\nmetadata: {name: m}\nspec: {}\n';
    expect(
      errors(convertManifest(`${bad}---\n${bad.replace('name: m', 'name: n')}`, { to: V1ALPHA2, plugins })),
    ).toHaveLength(2);
  });
});
