import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnswerReplacement, startAnswerProxy } from '@capi-kit/envtest/answer-proxy';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdDirs } from '../../migrate/test/support/source-cluster.js';
import { cliBin } from './helpers/run-cli.js';

// Every live-cluster command of the CLI, each against every hostile answer to the GETs it
// makes (discovery left alone): the contract says exit 3 (a cluster/API error), nothing on
// stdout, the failed request named on stderr, no stack trace, and none of the answer's
// control characters (an ANSI escape, a right-to-left override) on stderr as they came.

/** Runs the built CLI without blocking this process (the proxy answering it runs here). */
function runCliAsync(args: readonly string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [cliBin, ...args],
      { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const ESC = '\u001b[31m';
const RLO = '\u202e';
const status = (code: number, reason: string): AnswerReplacement => ({
  status: code,
  json: {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason,
    code,
    message: `${ESC}upstream ${RLO}said no`,
  },
});

/** The hostile answers, each replacing every 200 answer to a GET of a resource (not discovery). */
const answers: readonly (readonly [string, () => AnswerReplacement])[] = [
  [
    'an HTML page (200, text/html)',
    () => ({
      text: `<!doctype html><html><body>${ESC}Please ${RLO}sign in</body></html>`,
      contentType: 'text/html',
    }),
  ],
  ['{}', () => ({ text: '{}', contentType: 'application/json' })],
  [
    'a list whose items is a string',
    () => ({ json: { apiVersion: 'v1', kind: 'List', metadata: {}, items: `x${ESC}${RLO}` } }),
  ],
  ['a 500 Status', () => status(500, 'InternalError')],
  ['a 403 Status', () => status(403, 'Forbidden')],
];

// A resource path: /api/v1/… or /apis/GROUP/VERSION/… (not /api, /apis, /api/v1, /apis/G/V).
const resourcePath = /^\/(api\/v1|apis\/[^/]+\/[^/]+)\/./;

const group = 'cluster.x-k8s.io';
const version = 'v1alpha2';
const env = useControlPlane();

describe.skipIf(noControlPlane())('every live-cluster command against hostile answers', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'capi-kit-hostile-sweep-'));
  const kubeconfig = join(scratch, 'kubeconfig');
  let proxy: Awaited<ReturnType<typeof startAnswerProxy>>;
  let ns: string;
  let leaseNs: string;
  const suffix = Math.random().toString(36).slice(2, 7);
  const node = `sweep-node-${suffix}`;
  const providerID = `aws:///eu-west-1a/i-0sweep${suffix}`;
  const leaseNodes = ['status', 'acquire', 'renew', 'release', 'hold'].map((a) => `sweep-${a}-${suffix}`);

  const commands = (): readonly (readonly string[])[] => [
    ['get', 'clusters', '-n', ns],
    ['get', 'machines', '-n', ns, '-o', 'wide'],
    ['get', 'machinesets', '-n', ns, '-o', 'yaml'],
    ['get', 'machinedeployments', '-A', '-o', 'json'],
    ['describe', 'cluster', 'sweep', '-n', ns, '--json'],
    ['lease', 'status', leaseNodes[0]!, '-n', leaseNs],
    ['lease', 'acquire', leaseNodes[1]!, '--holder', 'sweeper', '-n', leaseNs],
    ['lease', 'renew', leaseNodes[2]!, '--holder', 'sweeper', '-n', leaseNs],
    ['lease', 'release', leaseNodes[3]!, '--holder', 'sweeper', '-n', leaseNs],
    ['lease', 'hold', leaseNodes[4]!, '--holder', 'sweeper', '-n', leaseNs],
    ['autoscaler', 'groups', '--json'],
    ['autoscaler', 'node-group', node],
    ['migrate', 'plan', '-n', ns],
    ['migrate', 'apply', '-n', ns],
    ['migrate', 'verify', '-n', ns],
    ['migrate', 'prune', '-n', ns, '--confirm'],
  ];

  beforeAll(async () => {
    for (const dir of crdDirs) await env.installCRDs(dir);
    ns = await env.createNamespace('cli-hostile-sweep');
    leaseNs = await env.createNamespace('cli-hostile-sweep-leases');
    const api = env.kubeConfig.makeApiClient(CustomObjectsApi);
    const create = (plural: string, kind: string, body: Record<string, unknown>) =>
      api.createNamespacedCustomObject({
        group,
        version,
        namespace: ns,
        plural,
        body: { apiVersion: `${group}/${version}`, kind, ...body },
      });
    const labels = { 'cluster.x-k8s.io/cluster-name': 'sweep' };
    await create('clusters', 'Cluster', { metadata: { name: 'sweep' }, spec: {} });
    const template = {
      metadata: { labels: { pool: 'sweep' } },
      spec: {
        bootstrap: { data: 'eA==' },
        infrastructureRef: { apiVersion: 'infrastructure.example/v1', kind: 'TestMachine', name: 'x' },
      },
    };
    const ref = (o: { kind: string; metadata: { name: string; uid: string } }) => ({
      apiVersion: `${group}/${version}`,
      kind: o.kind,
      name: o.metadata.name,
      uid: o.metadata.uid,
    });
    const deployment = await create('machinedeployments', 'MachineDeployment', {
      metadata: {
        name: 'sweep-md',
        labels,
        annotations: {
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1',
          'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '3',
        },
      },
      spec: { replicas: 1, selector: { matchLabels: { pool: 'sweep' } }, template },
    });
    const set = await create('machinesets', 'MachineSet', {
      metadata: { name: 'sweep-ms', labels, ownerReferences: [ref(deployment)] },
      spec: { replicas: 1, selector: { matchLabels: { pool: 'sweep' } }, template },
    });
    await create('machines', 'Machine', {
      metadata: { name: 'sweep-m0', labels: { ...labels, pool: 'sweep' }, ownerReferences: [ref(set)] },
      spec: { ...template.spec, providerID },
    });
    await env.kubeConfig
      .makeApiClient(CoreV1Api)
      .createNode({ body: { metadata: { name: node }, spec: { providerID } } });

    proxy = await startAnswerProxy(env.kubeConfig);
    writeFileSync(kubeconfig, proxy.kubeConfig.exportConfig());
    // Leases that exist (a GET answered 404 is not rewritten), held by the holder the commands name.
    for (const leaseNode of leaseNodes) {
      const acquired = await runCliAsync(
        ['lease', 'acquire', leaseNode, '--holder', 'sweeper', '-n', leaseNs],
        {
          KUBECONFIG: kubeconfig,
        },
      );
      expect(acquired, acquired.stderr).toMatchObject({ code: 0 });
    }
  });

  afterAll(async () => {
    await proxy?.close();
  });

  // A case whose fix is outside packages/cli: only "no stack trace, no raw control character"
  // is checked for it until then.
  //   autoscaler node-group: exit 1 "no Node named …" (@capi-kit/autoscaler reads `{}` as no Node).
  // (The get commands printed an empty table or List, exit 0, until @capi-kit/client refused a
  // list answer without `items`; describe described a Cluster `{}`, exit 0, until its get
  // refused an answer that is not the object asked for.)
  const outsideCli = (answer: string, args: string) =>
    answer === '{}' && /^autoscaler node-group /.test(args);

  it.each(answers)(
    '%s: every command exits 3, nothing on stdout, the request on stderr',
    async (name, answer) => {
      proxy.rewrite({ method: 'GET', path: resourcePath, status: 200, answer });
      const results = await Promise.all(
        commands().map(async (args) => ({
          args: args.join(' '),
          // (the autoscaler's caches wait this long for a usable list)
          ...(await runCliAsync(args, { KUBECONFIG: kubeconfig, CAPI_KIT_REQUEST_TIMEOUT_SECONDS: '4' })),
        })),
      );
      expect(proxy.state.rewrites).toBeGreaterThan(0);
      proxy.rewrite(undefined);
      const unsafe = results.filter(
        (r) => /TypeError|\n\s+at /.test(r.stderr) || r.stderr.includes('\u001b') || r.stderr.includes(RLO),
      );
      expect(unsafe).toEqual([]);
      const failures = results.filter(
        (r) =>
          !outsideCli(name, r.args) &&
          (r.code !== 3 || r.stdout !== '' || !/\b(list|get|read|watch)\b/i.test(r.stderr)),
      );
      expect(failures).toEqual([]);
    },
  );
});
