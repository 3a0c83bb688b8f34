// Machines, MachineSets and MachineDeployments of either API version, created on a real
// API server for the live tests, and Nodes for the workload side.
import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Node } from '@kubernetes/client-node';

export type Version = 'cluster.x-k8s.io/v1alpha2' | 'cluster.k8s.io/v1alpha1';

export interface Created {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; namespace: string; uid: string; resourceVersion: string } & Record<
    string,
    unknown
  >;
  readonly spec?: Record<string, unknown>;
}

const plural = { Machine: 'machines', MachineSet: 'machinesets', MachineDeployment: 'machinedeployments' };
type Kind = keyof typeof plural;

const minSize = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
const maxSize = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
const legacyMinSize = 'cluster.k8s.io/cluster-api-autoscaler-node-group-min-size';
const legacyMaxSize = 'cluster.k8s.io/cluster-api-autoscaler-node-group-max-size';

/** The parts of a spec each version requires of a machine template. */
function machineSpec(version: Version, providerID?: string): Record<string, unknown> {
  const id = providerID === undefined ? {} : { providerID };
  return version === 'cluster.k8s.io/v1alpha1'
    ? { providerSpec: { value: { kind: 'Test' } }, ...id }
    : {
        bootstrap: { data: 'ZWNobw==' },
        infrastructureRef: { apiVersion: 'infrastructure.example/v1', kind: 'TestMachine', name: 'x' },
        ...id,
      };
}

const ownerRef = (owner: Created) => ({
  apiVersion: owner.apiVersion,
  kind: owner.kind,
  name: owner.metadata.name,
  uid: owner.metadata.uid,
  controller: true,
});

export class ClusterObjects {
  readonly api: CustomObjectsApi;
  readonly group: string;
  readonly version: string;

  constructor(
    readonly kubeConfig: KubeConfig,
    readonly apiVersion: Version,
    readonly namespace: string,
  ) {
    this.api = kubeConfig.makeApiClient(CustomObjectsApi);
    [this.group, this.version] = apiVersion.split('/') as [string, string];
  }

  #target(kind: Kind, name?: string) {
    return {
      group: this.group,
      version: this.version,
      namespace: this.namespace,
      plural: plural[kind],
      name: name!,
    };
  }

  async create(kind: Kind, body: Record<string, unknown>): Promise<Created> {
    return this.api.createNamespacedCustomObject({
      ...this.#target(kind),
      body: { apiVersion: this.apiVersion, kind, ...body },
    });
  }

  get(kind: Kind, name: string): Promise<Created> {
    return this.api.getNamespacedCustomObject(this.#target(kind, name));
  }

  replace(kind: Kind, name: string, body: Created): Promise<Created> {
    return this.api.replaceNamespacedCustomObject({ ...this.#target(kind, name), body });
  }

  delete(kind: Kind, name: string): Promise<unknown> {
    return this.api.deleteNamespacedCustomObject(this.#target(kind, name));
  }

  async replicas(kind: 'MachineSet' | 'MachineDeployment', name: string): Promise<number> {
    const scale = await this.api.getNamespacedCustomObjectScale(this.#target(kind, name));
    return scale.spec.replicas;
  }

  /** Bound annotations under the key group the version's users write (both are read). */
  bounds(min: number | string, max: number | string): Record<string, string> {
    return this.group === 'cluster.k8s.io'
      ? { [legacyMinSize]: String(min), [legacyMaxSize]: String(max) }
      : { [minSize]: String(min), [maxSize]: String(max) };
  }

  clusterLabel(cluster: string): Record<string, string> {
    return { [`${this.group}/cluster-name`]: cluster };
  }

  machineDeployment(name: string, replicas: number, annotations: Record<string, string>, labels = {}) {
    const selector = { matchLabels: { set: name } };
    return this.create('MachineDeployment', {
      metadata: { name, annotations, labels },
      spec: {
        replicas,
        selector,
        template: { metadata: { labels: { set: name, ...labels } }, spec: machineSpec(this.apiVersion) },
      },
    });
  }

  machineSet(
    name: string,
    replicas: number,
    annotations: Record<string, string>,
    options: { owner?: Created; labels?: Record<string, string> } = {},
  ) {
    return this.create('MachineSet', {
      metadata: {
        name,
        annotations,
        labels: options.labels ?? {},
        ...(options.owner ? { ownerReferences: [ownerRef(options.owner)] } : {}),
      },
      spec: {
        replicas,
        selector: { matchLabels: { set: name } },
        template: { metadata: { labels: { set: name } }, spec: machineSpec(this.apiVersion) },
      },
    });
  }

  machine(
    name: string,
    options: {
      owner?: Created;
      ownerUID?: string;
      providerID?: string;
      labels?: Record<string, string>;
    } = {},
  ) {
    const owner = options.owner;
    return this.create('Machine', {
      metadata: {
        name,
        labels: options.labels ?? {},
        ...(owner
          ? { ownerReferences: [{ ...ownerRef(owner), uid: options.ownerUID ?? owner.metadata.uid }] }
          : {}),
      },
      spec: machineSpec(this.apiVersion, options.providerID),
    });
  }
}

/** Creates a Node (no kubelet: the object alone) with a providerID and annotations. */
export async function createNode(
  kubeConfig: KubeConfig,
  name: string,
  providerID: string | undefined,
  annotations: Record<string, string> = {},
): Promise<V1Node> {
  return kubeConfig.makeApiClient(CoreV1Api).createNode({
    body: { metadata: { name, annotations }, spec: providerID === undefined ? {} : { providerID } },
  });
}

/**
 * A MachineDeployment of `size` Machines (min 0, max 5) owned through one MachineSet, each
 * Machine with a Node (created through `nodes`) of its providerID; `paths` are its API paths.
 */
export async function groupWithNodes(objects: ClusterObjects, nodes: KubeConfig, size: number) {
  const name = unique('md');
  const md = await objects.machineDeployment(name, size, objects.bounds(0, 5));
  const set = await objects.machineSet(`${name}-set`, size, {}, { owner: md });
  const machines: Created[] = [];
  const nodeNames: string[] = [];
  for (let i = 0; i < size; i++) {
    const hex = Array.from({ length: 17 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
    const providerID = `aws:///us-east-1a/i-${hex}`;
    machines.push(await objects.machine(`${name}-m${i}`, { owner: set, providerID }));
    nodeNames.push(`${name}-n${i}`);
    await createNode(nodes, nodeNames[i]!, providerID);
  }
  const base = `/apis/${objects.apiVersion}/namespaces/${objects.namespace}`;
  return {
    id: `MachineDeployment/${objects.namespace}/${name}`,
    name,
    set,
    machines,
    nodes: nodeNames,
    scalePath: `${base}/machinedeployments/${name}/scale`,
    machinePath: (machine: Created) => `${base}/machines/${machine.metadata.name}`,
  };
}

let counter = 0;
/** A name unique within this test run. */
export const unique = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;
