import { waitForAccess } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { LeaseApiError } from '../src/index.js';
import { leaseClient, nodeName } from './helpers/clients.js';

const env = useControlPlane();

// Users come from client certificates that the cluster's CA signs (kubeConfigFor).
describe.skipIf(noControlPlane('client-certificates'))('RBAC', () => {
  beforeAll(async () => {
    // The rights docs/lease.md lists for a participant: leases only, in the lease namespace.
    await env.grant(
      'maintainer',
      [
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
        },
      ],
      { namespace: env.namespace, name: 'node-maintenance-lease' },
    );
    // RBAC changes reach the authorizer through an informer, not at once.
    expect(
      await waitForAccess(env.kubeConfig, 'maintainer', {
        namespace: env.namespace,
        group: 'coordination.k8s.io',
        resource: 'leases',
        verb: 'update',
      }),
    ).toBe(true);
  });

  it('a user without rights on Leases gets a clear 403', async () => {
    const kubeConfig = await env.kubeConfigFor('mallory', ['some-team']);
    const client = leaseClient(kubeConfig, env.namespace, 'mallory');
    const node = nodeName('forbidden');
    for (const attempt of [
      () => client.tryAcquire(node),
      () => client.inspect(node),
      () => client.release(node),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LeaseApiError);
      expect(error).toMatchObject({ code: 'forbidden', status: 403, reason: 'Forbidden' });
      expect((error as Error).message).toContain(
        `User "mallory" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "${env.namespace}"`,
      );
    }
    const watch = client.watch();
    await expect(watch.next()).rejects.toMatchObject({ code: 'forbidden', status: 403 });
  });

  it('a user with the documented Role can take part, and is refused only what it lacks', async () => {
    const kubeConfig = await env.kubeConfigFor('maintainer', []);
    const node = nodeName('allowed');
    const client = leaseClient(kubeConfig, env.namespace, 'maintainer');
    expect(await client.tryAcquire(node)).toMatchObject({ acquired: true, how: 'created' });
    expect(await client.renew(node)).toMatchObject({ renewed: true });
    expect(await client.release(node)).toEqual({ released: true });

    // The ownerReference option also needs `get nodes`, which this Role does not grant.
    const owning = leaseClient(kubeConfig, env.namespace, 'maintainer', { ownerReference: true });
    await expect(owning.tryAcquire(nodeName('owned'))).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('cannot get resource "nodes"'),
    });
  });
});
