import {
  AuthorizationV1Api,
  type KubeConfig,
  RbacAuthorizationV1Api,
  type RbacV1Subject,
  type V1PolicyRule,
  type V1ResourceAttributes,
  type V1SubjectAccessReviewSpec,
} from '@kubernetes/client-node';
import { EnvtestError } from './errors.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

// RBAC changes reach kube-apiserver's authorizer through an informer, not at once: a test
// that grants a Role and acts at once can be refused. Ask the server instead.

/**
 * Polls a SubjectAccessReview (as `admin`) until `user` may do `attributes`, or until
 * `timeoutMs` (default 60 s, a liveness bound for loaded machines) has passed. Resolves to
 * the server's last answer.
 */
export async function waitForAccess(
  admin: KubeConfig,
  user: string,
  attributes: V1ResourceAttributes,
  timeoutMs = 60_000,
): Promise<boolean> {
  const reviews = admin.makeApiClient(AuthorizationV1Api);
  const allowed = async () =>
    (await reviews.createSubjectAccessReview({ body: { spec: { user, resourceAttributes: attributes } } }))
      .status?.allowed === true;
  const deadline = performance.now() + timeoutMs;
  while (!(await allowed())) {
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * Whom {@link grantAccess} binds the rules to: a user name (what `kubeConfigFor(user)`
 * mints), or a User, Group or ServiceAccount subject.
 */
export type GrantSubject =
  | string
  | { kind: 'User' | 'Group'; name: string }
  | { kind: 'ServiceAccount'; name: string; namespace: string };

/** Where {@link grantAccess} grants, and the name of the objects it creates. */
export interface GrantOptions {
  /** A Role and RoleBinding in this namespace; without it, a ClusterRole and ClusterRoleBinding. */
  namespace?: string;
  /** The name of the role and its binding (default: the subject's name). */
  name?: string;
}

function subjectOf(subject: GrantSubject): RbacV1Subject {
  if (typeof subject === 'string') return { apiGroup: RBAC_GROUP, kind: 'User', name: subject };
  if (subject.kind === 'ServiceAccount') return { ...subject };
  return { apiGroup: RBAC_GROUP, kind: subject.kind, name: subject.name };
}

/** Who asks, in a SubjectAccessReview, for `subject`. */
function reviewer(subject: RbacV1Subject): Pick<V1SubjectAccessReviewSpec, 'user' | 'groups'> {
  if (subject.kind === 'Group') return { groups: [subject.name] };
  if (subject.kind === 'ServiceAccount')
    return { user: `system:serviceaccount:${subject.namespace}:${subject.name}` };
  return { user: subject.name };
}

/** One request each rule allows, to ask the authorizer about. */
function probes(rule: V1PolicyRule, namespace: string | undefined): V1SubjectAccessReviewSpec[] {
  const verb = rule.verbs[0];
  if (verb === undefined) return [];
  const path = rule.nonResourceURLs?.[0];
  if (path !== undefined) return [{ nonResourceAttributes: { path, verb } }];
  const resource = rule.resources?.[0];
  if (resource === undefined) return [];
  const slash = resource.indexOf('/');
  return [
    {
      resourceAttributes: {
        verb,
        group: rule.apiGroups?.[0] ?? '',
        resource: slash < 0 ? resource : resource.slice(0, slash),
        ...(slash < 0 ? {} : { subresource: resource.slice(slash + 1) }),
        ...(rule.resourceNames?.[0] === undefined ? {} : { name: rule.resourceNames[0] }),
        ...(namespace === undefined ? {} : { namespace }),
      },
    },
  ];
}

/**
 * Grants `rules` to `subject` as `admin`: a Role and a RoleBinding in `options.namespace`,
 * or a ClusterRole and a ClusterRoleBinding without one, both named `options.name` (default:
 * the subject's name). Resolves once the authorizer applies every rule (a SubjectAccessReview
 * per rule), so the subject can act at once; throws an `EnvtestError` (`timeout`) when it
 * does not within `timeoutMs`.
 */
export async function grantAccess(
  admin: KubeConfig,
  subject: GrantSubject,
  rules: V1PolicyRule[],
  options: GrantOptions = {},
  timeoutMs = 60_000,
): Promise<void> {
  const bound = subjectOf(subject);
  const name = options.name ?? bound.name;
  const { namespace } = options;
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  if (namespace === undefined) {
    await rbac.createClusterRole({ body: { metadata: { name }, rules } });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name },
        roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name },
        subjects: [bound],
      },
    });
  } else {
    await rbac.createNamespacedRole({ namespace, body: { metadata: { name }, rules } });
    await rbac.createNamespacedRoleBinding({
      namespace,
      body: { metadata: { name }, roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name }, subjects: [bound] },
    });
  }
  // RBAC reaches the authorizer through an informer: wait until it answers yes to each rule.
  const reviews = admin.makeApiClient(AuthorizationV1Api);
  const who = reviewer(bound);
  const deadline = performance.now() + timeoutMs;
  for (const spec of rules.flatMap((rule) => probes(rule, namespace))) {
    for (;;) {
      const review = await reviews.createSubjectAccessReview({ body: { spec: { ...spec, ...who } } });
      if (review.status?.allowed === true) break;
      if (performance.now() >= deadline) {
        throw new EnvtestError(
          'timeout',
          `granted ${bound.kind} "${bound.name}" ${namespace === undefined ? `ClusterRole ${name}` : `Role ${namespace}/${name}`}, ` +
            `but the authorizer did not allow ${JSON.stringify(spec)} within ${timeoutMs} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
