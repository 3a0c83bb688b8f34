import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, describeCluster, workloadKubeConfig } from '../src/index.js';
import { capiCrdDirs, unwrap, unwrapLeft } from './helpers/fixtures.js';

// A `<cluster>-kubeconfig` Secret is written by whoever may write Secrets on the management
// cluster. Reading it must not run a command or read a local file on the reader's machine.
const env = useControlPlane();

describe.skipIf(noControlPlane())(
  'a workload kubeconfig served in a Secret is data, not instructions',
  () => {
    const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-served-kubeconfig-'));
    const marker = join(scratch, 'exec-ran');
    const tokenFile = join(scratch, 'local-token');
    writeFileSync(tokenFile, 'a-local-secret-token');

    const cluster = { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true };
    const kubeconfig = (user: Record<string, unknown>, clusterExtra: Record<string, unknown> = {}) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'w', cluster: { ...cluster, ...clusterExtra } }],
        users: [{ name: 'u', user }],
        contexts: [{ name: 'c', context: { cluster: 'w', user: 'u' } }],
        'current-context': 'c',
      });
    /** A kubeconfig whose user is fine and whose cluster's server is `server`. */
    const withServer = (server: string) => kubeconfig({ token: 't' }, { server });
    const execUser = {
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        command: '/bin/sh',
        args: [
          '-c',
          `touch ${marker}; echo '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"x"}}'`,
        ],
      },
    };
    const cases: [string, string, string][] = [
      ['exec', kubeconfig(execUser), 'users[0].user.exec is refused'],
      [
        'auth-provider',
        kubeconfig({ 'auth-provider': { name: 'gcp', config: { 'cmd-path': `touch ${marker}` } } }),
        'users[0].user.auth-provider is refused',
      ],
      ['token-file', kubeconfig({ 'token-file': tokenFile }), 'users[0].user.token-file is refused'],
      ['client-key', kubeconfig({ 'client-key': tokenFile }), 'users[0].user.client-key is refused'],
      [
        'certificate-authority',
        kubeconfig({ token: 't' }, { 'certificate-authority': tokenFile }),
        'clusters[0].cluster.certificate-authority is refused',
      ],
      // fetch quoted such a URL whole, password and all, into every request's error
      [
        'server-password',
        withServer('https://admin:S3CRET@10.0.0.1:6443'),
        'cluster "w": its server URL holds a user name or password (not shown)',
      ],
      [
        'server-unparsed',
        withServer('https://S3CRET@[::1'),
        'cluster "w": its server is not a URL (not shown: it may hold a password)',
      ],
      // each request failed with "You need to define an absolute base url"
      [
        'server-ftp',
        withServer('ftp://10.0.0.1'),
        'cluster "w": its server "ftp://10.0.0.1" is not an https:// (or http://) URL',
      ],
      [
        'server-bare',
        withServer('10.0.0.1:6443'),
        'cluster "w": its server "10.0.0.1:6443" is not an https:// (or http://) URL',
      ],
      // client-node took a user the context names but users lacks as none: anonymous requests
      [
        'user-missing',
        kubeconfig({ token: 't' }).replace('"user":"u"}', '"user":"ghost"}'),
        `the kubeconfig's context "c" names user "ghost", which is not in users`,
      ],
      [
        'cluster-missing',
        kubeconfig({ token: 't' }).replace('"cluster":"w"', '"cluster":"w2"'),
        `the kubeconfig's context "c" names cluster "w2", which is not in clusters`,
      ],
      // client-node read a context's user as `user || undefined`: false and 0 went anonymous
      [
        'user-false',
        kubeconfig({ token: 't' }).replace('"user":"u"}', '"user":false}'),
        `data.value: contexts[0].context.user of context "c" is false (a boolean), not a user's name`,
      ],
      [
        'user-zero',
        kubeconfig({ token: 't' }).replace('"user":"u"}', '"user":0}'),
        `data.value: contexts[0].context.user of context "c" is 0 (a number), not a user's name`,
      ],
      [
        'namespace-zero',
        kubeconfig({ token: 't' }).replace('"user":"u"}', '"user":"u","namespace":0}'),
        'data.value: contexts[0].context.namespace of context "c" is 0 (a number), not a namespace',
      ],
    ];

    beforeAll(async () => {
      for (const dir of capiCrdDirs) await env.installCRDs(dir);
      const core = env.kubeConfig.makeApiClient(CoreV1Api);
      for (const [name, text] of cases) {
        await core.createNamespacedSecret({
          namespace: env.namespace,
          body: {
            metadata: { name: `${name}-kubeconfig` },
            data: { value: Buffer.from(text).toString('base64') },
          },
        });
      }
    });

    it.each(cases)('a kubeconfig with %s is refused, naming the field', async (name, _text, message) => {
      const error = unwrapLeft(
        await workloadKubeConfig(env.kubeConfig, { metadata: { name, namespace: env.namespace } }),
      );
      expect(error).toMatchObject({ code: 'kubeconfig-secret-malformed', path: 'data.value' });
      expect(error.message).toContain(message);
      expect(error.message).not.toContain('S3CRET');
    });

    it('a cluster name that cannot name a Secret is refused as such, not read as a missing Secret', async () => {
      // (a spec.clusterName is not checked by the API server: "a/b" was "Secret ns/a/b-kubeconfig does not exist")
      const ns = env.namespace;
      for (const name of ['a/b', 'exec/x', '', 'Upper', 'a'.repeat(250)]) {
        const error = unwrapLeft(
          await workloadKubeConfig(env.kubeConfig, { metadata: { name, namespace: ns } }),
        );
        expect(error, name).toEqual({
          code: 'invalid-cluster-ref',
          secret: `${ns}/${name}-kubeconfig`,
          path: 'metadata.name',
          message: `the workload cluster's name ${JSON.stringify(name)} is not a valid Cluster name: its kubeconfig Secret would be ${JSON.stringify(`${name}-kubeconfig`)}, not a valid Secret name (lowercase letters, digits, '-' and '.', at most 253 characters)`,
        });
      }
      for (const namespace of ['..', 'a/b', 'Upper']) {
        const error = unwrapLeft(
          await workloadKubeConfig(env.kubeConfig, { metadata: { name: 'exec', namespace } }),
        );
        expect(error, namespace).toMatchObject({ code: 'invalid-cluster-ref', path: 'metadata.namespace' });
        expect(error.message).toContain(`namespace ${JSON.stringify(namespace)} is not a valid namespace`);
      }
    });

    it('describe cluster does not run the command of a kubeconfig Secret', async () => {
      await env.kubeConfig.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
        group: 'cluster.x-k8s.io',
        version: 'v1alpha2',
        namespace: env.namespace,
        plural: 'clusters',
        body: {
          apiVersion: 'cluster.x-k8s.io/v1alpha2',
          kind: 'Cluster',
          metadata: { name: 'exec', namespace: env.namespace },
          spec: {},
        },
      });
      const client = unwrap(await connect(env.kubeConfig));
      const described = unwrap(await describeCluster(client, 'exec', { namespace: env.namespace }));
      expect(existsSync(marker)).toBe(false);
      expect(described.nodesKnown).toBe(false);
      expect(described.problems).toEqual([
        {
          object: `Secret ${env.namespace}/exec-kubeconfig`,
          message: expect.stringContaining('users[0].user.exec is refused'),
        },
      ]);
    });
  },
);
