import { AuthorizationV1Api, type KubeConfig, type V1ResourceAttributes } from '@kubernetes/client-node';

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
