import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyClusterMigration, planClusterMigration, type Write } from '../src/index.js';
import {
  awsMigrationOptions,
  crdDirs,
  listObjects,
  mergePatchAs,
  seedSourceCluster,
} from './support/source-cluster.js';

// A controller ownerReference of a v1alpha1 object is data whoever may edit the object can
// write. One that cannot be rebuilt onto a migrated owner, or that would give an object
// apply already made a second controller, is refused by plan and apply before anything is
// written, naming the object and the reference's path: not dropped (the object would be
// adopted by whichever v0.2 owner matches it), not left for the API server to refuse a
// patch half way through the apply.

const env = useControlPlane();
const V1ALPHA1 = 'cluster.k8s.io/v1alpha1';
const V1ALPHA2 = 'cluster.x-k8s.io/v1alpha2';
type Reference = { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean };
type Obj = KubernetesObject & { metadata: { name: string; uid: string; ownerReferences?: Reference[] } };

const options = (namespace: string, afterWrite?: (write: Write) => void) =>
  awsMigrationOptions(env.kubeConfig, namespace, afterWrite);

const client = () => KubernetesObjectApi.makeApiClient(env.kubeConfig);

function read(kind: string, name: string, namespace: string): Promise<Obj> {
  return client().read({ apiVersion: V1ALPHA1, kind, metadata: { name, namespace } }) as Promise<Obj>;
}

/** Replaces a v1alpha1 object's ownerReferences, as anyone who may patch it can. */
async function setOwners(kind: string, name: string, namespace: string, references: Reference[]) {
  await mergePatchAs(env.kubeConfig, {
    apiVersion: V1ALPHA1,
    kind,
    metadata: { name, namespace, ownerReferences: references },
  });
}

/** The v1alpha2 objects of the namespace, as names and resourceVersions. */
async function targets(namespace: string): Promise<string[]> {
  const out: string[] = [];
  for (const kind of ['Cluster', 'MachineDeployment', 'MachineSet', 'Machine']) {
    for (const o of await listObjects(env.kubeConfig, V1ALPHA2, kind, namespace))
      out.push(`${kind} ${String(o.metadata.name)} ${String(o.metadata.resourceVersion)}`);
  }
  return out.sort();
}

const FOREIGN = {
  apiVersion: 'example.com/v1',
  kind: 'Autoscaler',
  name: 'elsewhere',
  uid: '22222222-2222-2222-2222-222222222222',
};

describe.skipIf(noControlPlane())('migrate with forged controller ownerReferences', () => {
  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
  });

  it('a controller reference naming an owner by another UID, another kind or another namespace is refused by plan and apply before anything is written', async () => {
    const namespace = await env.createNamespace('migrate-controller');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'own',
      workers: 2,
    });
    const other = await env.createNamespace('migrate-controller');
    await seedSourceCluster(env.kubeConfig, other, { provider: 'aws', name: 'own', workers: 1 });
    const machineSetName = `${source.name}-workers-5d8f`;
    const machineSet = await read('MachineSet', machineSetName, namespace);
    const foreign = await read('MachineSet', machineSetName, other);
    const [first, second] = source.workers as [string, string];
    const controlPlane = `${source.name}-controlplane-0`;
    const controller = (r: Omit<Reference, 'apiVersion'>): Reference => ({
      apiVersion: V1ALPHA1,
      controller: true,
      ...r,
    });
    // A MachineSet UID that exists nowhere; the other namespace's MachineSet of the same
    // name; this namespace's MachineSet's UID under the kind MachineDeployment (none of that name).
    const bogus = '11111111-1111-1111-1111-111111111111';
    await setOwners('Machine', first, namespace, [
      controller({ kind: 'MachineSet', name: machineSetName, uid: bogus }),
    ]);
    await setOwners('Machine', second, namespace, [
      controller({ kind: 'MachineSet', name: machineSetName, uid: foreign.metadata.uid }),
    ]);
    await setOwners('Machine', controlPlane, namespace, [
      controller({ kind: 'MachineDeployment', name: machineSetName, uid: machineSet.metadata.uid }),
    ]);

    const tail =
      "dropped, the object would lose its controller and be adopted by whichever v0.2 owner's selector matches it, rebuilt, it would be handed to an owner that never had it: correct or remove the reference, then plan again";
    const line = (machine: string, kind: string, uid: string, why: string) =>
      `Machine ${namespace}/${machine}: metadata.ownerReferences[0]: controller reference to ${kind} "${machineSetName}" (uid "${uid}"): ${why}; ${tail}`;
    const expected = {
      code: 'conversion',
      message: [
        line(
          controlPlane,
          'MachineDeployment',
          machineSet.metadata.uid,
          `MachineDeployment ${namespace}/${machineSetName} is not migrated (there is no such object here, or it is being deleted)`,
        ),
        line(
          first,
          'MachineSet',
          bogus,
          `MachineSet ${namespace}/${machineSetName} is named with uid ${bogus}, not that owner's (${machineSet.metadata.uid})`,
        ),
        line(
          second,
          'MachineSet',
          foreign.metadata.uid,
          `MachineSet ${namespace}/${machineSetName} is named with uid ${foreign.metadata.uid}, not that owner's (${machineSet.metadata.uid})`,
        ),
      ].join('\n'),
    };
    const writes: Write[] = [];
    const refused = await applyClusterMigration(options(namespace, (w) => void writes.push(w)));
    if (E.isRight(refused)) throw new Error('migrated Machines whose controller references were forged');
    expect(refused.left).toEqual(expected);
    expect(writes).toEqual([]);
    expect(await planClusterMigration(options(namespace))).toEqual(refused);
    expect(await targets(namespace)).toEqual([]);
  });

  it('two controller references on one v1alpha1 object are refused by the API server itself', async () => {
    // (so the plan's check of them guards objects read from elsewhere only)
    const namespace = await env.createNamespace('migrate-controller');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'two',
      workers: 1,
    });
    const worker = await read('Machine', source.workers[0]!, namespace);
    await expect(
      setOwners('Machine', worker.metadata.name, namespace, [
        ...(worker.metadata.ownerReferences ?? []),
        { ...FOREIGN, controller: true },
      ]),
    ).rejects.toThrow(/Only one reference can have Controller set to true/);
  });

  it('a v1alpha1 Machine whose controller changed since apply made its counterpart is flagged by plan and refused by apply, not failed half way', async () => {
    // The counterpart's reference to its MachineSet says controller; merged with the new
    // controller reference, it would have two, which the API server refuses at patch time.
    const namespace = await env.createNamespace('migrate-controller');
    const source = await seedSourceCluster(env.kubeConfig, namespace, {
      provider: 'aws',
      name: 'moved',
      workers: 1,
    });
    const first = await applyClusterMigration(options(namespace));
    if (E.isLeft(first)) throw new Error(JSON.stringify(first.left));
    const worker = source.workers[0]!;
    const machine = await read('Machine', worker, namespace);
    const [machineSet] = machine.metadata.ownerReferences as [Reference];
    await setOwners('Machine', worker, namespace, [
      { ...machineSet, controller: false },
      { ...FOREIGN, controller: true },
    ]);
    const migrated = (await client().read({
      apiVersion: V1ALPHA2,
      kind: 'MachineSet',
      metadata: { name: machineSet.name, namespace },
    })) as Obj;
    const problem = {
      object: `Machine ${namespace}/${worker}`,
      message: `metadata.ownerReferences[0] names controller MachineSet "${machineSet.name}" (uid "${migrated.metadata.uid}"), and apply would add controller Autoscaler "elsewhere" from Machine ${namespace}/${worker}'s metadata.ownerReferences[1]: an object has at most one controller, so the API server would refuse the patch half way through the apply; refusing to act on it (remove the reference that is not its controller, here or on the v1alpha1 object, and run again)`,
    };
    const planned = await planClusterMigration(options(namespace));
    if (E.isLeft(planned)) throw new Error(JSON.stringify(planned.left));
    expect(planned.right.warnings).toContain(`${problem.object}: ${problem.message}`);

    const before = await targets(namespace);
    const writes: Write[] = [];
    const refused = await applyClusterMigration(options(namespace, (w) => void writes.push(w)));
    if (E.isRight(refused)) throw new Error('applied a second controller reference');
    expect(refused.left).toEqual({
      code: 'preflight',
      message: 'preflight found 1 problem(s); nothing was written',
      problems: [problem],
    });
    expect(writes).toEqual([]);
    expect(await targets(namespace)).toEqual(before);
  });
});
