import { machinePhase } from '@capi-kit/core/phases';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Informer, type ObjectOf } from '../src/index.js';
import { capiCrdDirs, unwrap, v1alpha2Machine } from './helpers/fixtures.js';
import { pollUntil } from './helpers/poll.js';

// docs/client.md's operator example, as written there, against a real API server: an
// informer whose handlers keep status.phase equal to core's phase rules through the status
// subresource.
type Machine = ObjectOf<'cluster.x-k8s.io/v1alpha2', 'Machine'>;
const cp = useControlPlane();

describe.skipIf(noControlPlane())('the operator example of docs/client.md', () => {
  let informer: Informer<Machine>;

  beforeAll(async () => {
    for (const dir of capiCrdDirs) await cp.installCRDs(dir);
  });
  afterAll(() => informer?.stop());

  it('writes the computed phase into status, and settles', async () => {
    const client = unwrap(await connect(cp.kubeConfig));
    const machines = unwrap(client.resource('cluster.x-k8s.io/v1alpha2', 'Machine'));
    informer = unwrap(client.informer('cluster.x-k8s.io/v1alpha2', 'Machine', { namespace: cp.namespace }));
    let writes = 0;

    async function reconcile(machine: Machine) {
      const wanted = machinePhase(machine);
      if (machine.status?.phase === wanted) return;
      const patched = await machines.patchStatus(
        machine.metadata?.namespace ?? 'default',
        machine.metadata?.name ?? '',
        { type: 'merge', patch: { status: { phase: wanted } } },
      );
      writes++;
      if (E.isLeft(patched) && patched.left.code !== 'not-found') throw new Error(patched.left.message);
    }
    informer.on('add', (m) => void reconcile(m));
    informer.on('update', (m) => void reconcile(m));
    await informer.start();

    unwrap(await machines.create(v1alpha2Machine(cp.namespace, 'op-0')));
    unwrap(
      await machines.create(v1alpha2Machine(cp.namespace, 'op-1', 'prod', { providerID: 'aws:///zone/i-1' })),
    );
    await pollUntil('both Machines carry their computed phase', async () => {
      const listed = unwrap(await machines.list({ namespace: cp.namespace }));
      return listed.items.length === 2 && listed.items.every((m) => m.status?.phase === machinePhase(m));
    });
    const phases = unwrap(await machines.list({ namespace: cp.namespace })).items.map((m) => m.status?.phase);
    expect(phases.every((p) => p !== undefined && p !== '')).toBe(true);
    // One write per Machine: the informer sees its own write as an update that needs none.
    expect(writes).toBe(2);
  });
});
