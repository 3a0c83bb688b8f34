import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForAccess } from '@capi-kit/envtest';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { NodeLeaseClient } from '@capi-kit/lease';
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { cliBin } from './helpers/run-cli.js';

// `capi-kit lease` inside a pod: no kubeconfig anywhere, KUBERNETES_SERVICE_HOST/PORT set,
// and the pod's service account mounted at /var/run/secrets/kubernetes.io/serviceaccount
// (token, ca.crt, namespace). The CLI then talks to the API server as that service account.
//
// The mount is made as a pod would have it, for the child process only: `unshare -rm` gives
// the child its own mount namespace (as root in a user namespace, so no privilege is needed
// where user namespaces are allowed), a tmpfs over /run hides the host's, and the test's
// directory is bound at the service-account path. Nothing is written outside the scratch
// directory, and the CLI's own code path (client-node's fixed paths) is what runs.

const env = useControlPlane();
const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-lease-in-cluster-'));
const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Mounts `$1` at the service-account path in a private mount namespace, then runs the rest. */
const podShell = [
  'set -e',
  'run=$(readlink -f /var/run)',
  'mount -t tmpfs tmpfs "$run"',
  `mkdir -p "$run/${SERVICE_ACCOUNT_DIR.slice('/var/run/'.length)}"`,
  `mount --bind "$1" ${SERVICE_ACCOUNT_DIR}`,
  'shift',
  'exec "$@"',
].join('\n');

/** The API server's address as a pod sees it: host and port from the environment. */
function serviceEnvironment(): { KUBERNETES_SERVICE_HOST: string; KUBERNETES_SERVICE_PORT: string } {
  const server = new URL(env.kubeConfig.getCurrentCluster()!.server);
  return { KUBERNETES_SERVICE_HOST: server.hostname, KUBERNETES_SERVICE_PORT: server.port };
}

/** The cluster's CA as PEM, from the test kubeconfig (data or file). */
function clusterCa(): string {
  const cluster = env.kubeConfig.getCurrentCluster()!;
  if (cluster.caData !== undefined) return Buffer.from(cluster.caData, 'base64').toString('utf8');
  throw new Error('the test kubeconfig has no certificate-authority-data');
}

/** A service account with a fresh token, mounted into a directory as the kubelet lays it out. */
async function mountedServiceAccount(name: string): Promise<string> {
  const core = env.kubeConfig.makeApiClient(CoreV1Api);
  await core.createNamespacedServiceAccount({ namespace: env.namespace, body: { metadata: { name } } });
  const request = await core.createNamespacedServiceAccountToken({
    name,
    namespace: env.namespace,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const token = request.status?.token;
  if (token === undefined || token === '') throw new Error(`TokenRequest for ${name} returned no token`);
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'token'), token);
  writeFileSync(join(dir, 'ca.crt'), clusterCa());
  writeFileSync(join(dir, 'namespace'), env.namespace);
  return dir;
}

async function grantLeaseReading(serviceAccount: string): Promise<void> {
  await env.grant(
    { kind: 'ServiceAccount', name: serviceAccount, namespace: env.namespace },
    [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get'] }],
    { namespace: env.namespace, name: `${serviceAccount}-leases` },
  );
  const user = `system:serviceaccount:${env.namespace}:${serviceAccount}`;
  const attributes = {
    namespace: env.namespace,
    group: 'coordination.k8s.io',
    resource: 'leases',
    verb: 'get',
  };
  expect(await waitForAccess(env.kubeConfig, user, attributes)).toBe(true);
}

/** `capi-kit lease status NODE` as a process in a pod with `mounted` as its service account. */
function leaseStatusInPod(mounted: string, node: string) {
  const home = mkdtempSync(join(scratch, 'home-'));
  const result = spawnSync(
    'unshare',
    [
      '-rm',
      'sh',
      '-c',
      podShell,
      'pod',
      mounted,
      process.execPath,
      cliBin,
      'lease',
      'status',
      node,
      '--namespace',
      env.namespace,
    ],
    {
      encoding: 'utf8',
      // No KUBECONFIG and an empty HOME: the only credentials are the mounted ones.
      env: { PATH: process.env.PATH, HOME: home, ...serviceEnvironment() },
      timeout: 120_000,
    },
  );
  if (result.error !== undefined) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(noControlPlane('client-certificates'))(
  'capi-kit lease in a pod (no kubeconfig)',
  { timeout: 300_000 },
  () => {
    it('reads the lease as the pod’s service account, and is refused what that account may not do', async () => {
      const node = `in-pod-${Math.random().toString(36).slice(2, 8)}`;
      const alice = new NodeLeaseClient({
        kubeConfig: env.kubeConfig,
        namespace: env.namespace,
        holderIdentity: 'alice',
        timing: { leaseDurationSeconds: 600 },
      });
      await alice.acquire(node);

      const reader = await mountedServiceAccount('lease-reader');
      await grantLeaseReading('lease-reader');
      const read = leaseStatusInPod(reader, node);
      expect(read.stderr).toBe('');
      expect(read).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ {2}holder: +alice$/m) });

      // The same path with an account that has no rights: the server refuses it by name, which
      // shows the request went out with the mounted token and nothing else.
      const stranger = await mountedServiceAccount('stranger');
      const refused = leaseStatusInPod(stranger, node);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(`system:serviceaccount:${env.namespace}:stranger`);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    });
  },
);
