// A migration of a 500-Machine v1alpha1 cluster on a real API server: wall time and API
// calls of `apply` (preflight included), of a second `apply` (which must write nothing), and
// of `verify`, against a baseline in the same run: bare client-node creates of the very
// objects apply creates, with no preflight, no status and no ownerReferences.
// API calls are read from the API server's own apiserver_request_total counter.
//
//   pnpm --filter @capi-kit/migrate bench          (CAPI_KIT_BENCH_MACHINES, default 500)
import { type RequestOptions, request } from 'node:https';
import { startControlPlane } from '@capi-kit/envtest';
import { awsConversionPlugin } from '@capi-kit/providers-aws';
import { type KubeConfig, type KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import * as E from 'fp-ts/lib/Either.js';
import { countFromEnv } from '../../../scripts/bench-ratio.js';
import {
  applyClusterMigration,
  type MigrationOptions,
  planClusterMigration,
  verifyClusterMigration,
} from '../dist/index.js';
import { crdDirs, seedSourceCluster } from '../test/support/source-cluster.js';

const machines = countFromEnv('CAPI_KIT_BENCH_MACHINES', 500);

/** Sum of apiserver_request_total: every request the API server has answered. */
async function requestCount(kubeConfig: KubeConfig): Promise<number> {
  const server = new URL(kubeConfig.getCurrentCluster()!.server);
  const options: RequestOptions = {
    host: server.hostname,
    port: server.port,
    path: '/metrics',
    method: 'GET',
  };
  await kubeConfig.applyToHTTPSOptions(options);
  const text = await new Promise<string>((resolve, reject) => {
    request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    })
      .on('error', reject)
      .end();
  });
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('apiserver_request_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

async function measure<T>(
  kubeConfig: KubeConfig,
  run: () => Promise<T>,
): Promise<{ value: T; ms: number; calls: number }> {
  const before = await requestCount(kubeConfig);
  const start = performance.now();
  const value = await run();
  const ms = performance.now() - start;
  // The metrics request itself is counted once; leave it out.
  const calls = (await requestCount(kubeConfig)) - before - 1;
  return { value, ms, calls };
}

const plane = await startControlPlane({ backend: 'local', log: () => {} });
try {
  for (const dir of crdDirs) await plane.installCRDs(dir);
  const namespace = await plane.createNamespace('migrate-bench');
  const seedStart = performance.now();
  await seedSourceCluster(plane.kubeConfig, namespace, { provider: 'aws', name: 'bench', workers: machines });
  console.log(
    `Node ${process.version}; seeded ${machines} worker Machines in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );
  const options: MigrationOptions = {
    kubeConfig: plane.kubeConfig,
    scope: { namespace },
    plugins: [awsConversionPlugin],
  };

  // Baseline: the same objects, created bare into another namespace.
  const plan = await planClusterMigration(options);
  if (E.isLeft(plan)) throw new Error(plan.left.message);
  const bareNamespace = await plane.createNamespace('migrate-bench-bare');
  const client = KubernetesObjectApi.makeApiClient(plane.kubeConfig);
  const bare = await measure(plane.kubeConfig, async () => {
    for (const planned of plan.right.objects) {
      const object = {
        ...planned.object,
        metadata: { ...(planned.object.metadata as object), namespace: bareNamespace },
      };
      await client.create(object as KubernetesObject);
    }
  });

  const apply = await measure(plane.kubeConfig, () => applyClusterMigration(options));
  if (E.isLeft(apply.value)) throw new Error(JSON.stringify(apply.value.left));
  const again = await measure(plane.kubeConfig, () => applyClusterMigration(options));
  if (E.isLeft(again.value) || again.value.right.created.length > 0)
    throw new Error('second apply was not a no-op');
  const verify = await measure(plane.kubeConfig, () => verifyClusterMigration(options));
  if (E.isLeft(verify.value) || verify.value.right.differences.length > 0)
    throw new Error('verify found differences');

  const objects = plan.right.objects.length;
  const row = (name: string, m: { ms: number; calls: number }) =>
    console.log(
      `${name.padEnd(34)} ${(m.ms / 1000).toFixed(2).padStart(7)} s  ${String(m.calls).padStart(6)} API calls  ${(m.calls / objects).toFixed(2)} per object`,
    );
  console.log(
    `${objects} objects planned (${machines + 1} Machines with their AWSMachines and KubeadmConfigs)`,
  );
  row('bare create of the same objects', bare);
  row('apply (preflight + create + status)', apply);
  row('second apply (no writes)', again);
  row('verify', verify);
  console.log(`RATIO migrate-apply-${machines}/bare-create ${(apply.ms / bare.ms).toFixed(2)}`);
} finally {
  await plane.stop();
}
