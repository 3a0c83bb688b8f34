import {
  ApiException,
  AuthorizationV1Api,
  CoordinationV1Api,
  CoreV1Api,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { EnvtestError } from '../src/errors.js';
import { noControlPlane, useControlPlane } from '../src/vitest/index.js';

const cp = useControlPlane();

async function statusOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof ApiException) return error.code;
    throw error;
  }
}

const lease = (name: string) => ({ metadata: { name }, spec: { holderIdentity: 'grant-test' } });

// grant() resolves once the authorizer applies the rules, so nothing below polls: each
// request right after it is answered by the new Role.
describe.skipIf(noControlPlane('client-certificates'))('grant()', () => {
  it('in a namespace: a Role and RoleBinding for the user, the granted verbs there and nothing else', async () => {
    const namespace = cp.namespace;
    const other = await cp.createNamespace('grant-other');
    const user = `lease-lister-${namespace}`;
    const leases = (await cp.kubeConfigFor(user)).makeApiClient(CoordinationV1Api);
    expect(await statusOf(leases.listNamespacedLease({ namespace }))).toBe(403);

    const rules = [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list'] }];
    await cp.grant(user, rules, { namespace });

    expect(await statusOf(leases.listNamespacedLease({ namespace }))).toBe('ok');
    // Another verb, the same resource in another namespace, another resource: all refused.
    expect(await statusOf(leases.createNamespacedLease({ namespace, body: lease('x') }))).toBe(403);
    expect(await statusOf(leases.listNamespacedLease({ namespace: other }))).toBe(403);
    expect(await statusOf(leases.listLeaseForAllNamespaces())).toBe(403);
    const core = (await cp.kubeConfigFor(user)).makeApiClient(CoreV1Api);
    expect(await statusOf(core.listNamespacedConfigMap({ namespace }))).toBe(403);

    // Exactly these objects: a Role with the rules, a RoleBinding of it to the User, named after it.
    const rbac = cp.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    const role = await rbac.readNamespacedRole({ namespace, name: user });
    expect(role.rules).toEqual(rules);
    const binding = await rbac.readNamespacedRoleBinding({ namespace, name: user });
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: user });
    expect(binding.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }]);
    expect(await statusOf(rbac.readClusterRole({ name: user }))).toBe(404);
  });

  it('without a namespace: a ClusterRole and ClusterRoleBinding, the granted verbs in every namespace', async () => {
    const user = `namespace-reader-${cp.namespace}`;
    const name = `grant-test-${cp.namespace}`;
    const core = (await cp.kubeConfigFor(user)).makeApiClient(CoreV1Api);
    expect(await statusOf(core.readNamespace({ name: cp.namespace }))).toBe(403);

    await cp.grant(user, [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }], { name });

    expect(await statusOf(core.readNamespace({ name: cp.namespace }))).toBe('ok');
    expect(await statusOf(core.readNamespace({ name: 'default' }))).toBe('ok');
    expect(await statusOf(core.listNamespace())).toBe(403);
    expect(await statusOf(core.deleteNamespace({ name: 'no-such-namespace' }))).toBe(403);

    const rbac = cp.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    expect((await rbac.readClusterRole({ name })).rules).toEqual([
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] },
    ]);
    const binding = await rbac.readClusterRoleBinding({ name });
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name });
    expect(binding.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }]);
  });

  it('to a Group: members get the rules, a user outside it does not', async () => {
    const namespace = cp.namespace;
    const group = `grant-testers-${namespace}`;
    await cp.grant(
      { kind: 'Group', name: group },
      [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] }],
      { namespace },
    );
    const member = (await cp.kubeConfigFor('member', [group])).makeApiClient(CoordinationV1Api);
    const outsider = (await cp.kubeConfigFor('outsider', ['other'])).makeApiClient(CoordinationV1Api);
    expect(await statusOf(member.createNamespacedLease({ namespace, body: lease('by-member') }))).toBe('ok');
    expect(await statusOf(member.readNamespacedLease({ namespace, name: 'by-member' }))).toBe(403);
    expect(await statusOf(outsider.createNamespacedLease({ namespace, body: lease('by-outsider') }))).toBe(
      403,
    );
  });

  it('to a ServiceAccount, with resource names and subresources: the authorizer allows exactly those', async () => {
    const namespace = cp.namespace;
    await cp.grant(
      { kind: 'ServiceAccount', name: 'lease-keeper', namespace },
      [
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: ['node-a'],
          verbs: ['update'],
        },
        { apiGroups: [''], resources: ['pods/status'], verbs: ['patch'] },
      ],
      { namespace, name: 'lease-keeper-rights' },
    );
    const reviews = cp.kubeConfig.makeApiClient(AuthorizationV1Api);
    const allowed = async (resourceAttributes: Record<string, string>) =>
      (
        await reviews.createSubjectAccessReview({
          body: { spec: { user: `system:serviceaccount:${namespace}:lease-keeper`, resourceAttributes } },
        })
      ).status?.allowed === true;
    const leases = { namespace, group: 'coordination.k8s.io', resource: 'leases', verb: 'update' };
    expect(await allowed({ ...leases, name: 'node-a' })).toBe(true);
    expect(await allowed({ ...leases, name: 'node-b' })).toBe(false);
    expect(
      await allowed({ namespace, group: '', resource: 'pods', subresource: 'status', verb: 'patch' }),
    ).toBe(true);
    expect(await allowed({ namespace, group: '', resource: 'pods', verb: 'patch' })).toBe(false);
    const binding = await cp.kubeConfig
      .makeApiClient(RbacAuthorizationV1Api)
      .readNamespacedRoleBinding({ namespace, name: 'lease-keeper-rights' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'lease-keeper', namespace }]);
  });

  it('a name that is taken is the API server’s 409, and nothing is granted', async () => {
    const namespace = cp.namespace;
    const user = `taken-${namespace}`;
    const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }];
    await cp.grant(user, rules, { namespace, name: 'taken' });
    const error = await cp.grant(`other-${namespace}`, rules, { namespace, name: 'taken' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiException);
    expect((error as ApiException<unknown>).code).toBe(409);
    expect(error).not.toBeInstanceOf(EnvtestError);
    const core = (await cp.kubeConfigFor(`other-${namespace}`)).makeApiClient(CoreV1Api);
    expect(await statusOf(core.listNamespacedConfigMap({ namespace }))).toBe(403);
  });
});
