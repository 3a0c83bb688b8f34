// Lease client latency against a real API server, side by side with the bare client-node
// calls it is built from, and the cost of one LeaseManager renewal cycle over 1,000 node
// leases. Starts a private control plane (kube-apiserver + etcd on loopback).
//
//   pnpm --filter @capi-kit/lease bench
//
// CAPI_KIT_BENCH_LEASES (default 1000) and CAPI_KIT_BENCH_CONCURRENCY (default "16,64")
// size the LeaseManager part.
import { startControlPlane } from '@capi-kit/envtest';
import { CoordinationV1Api, type V1Lease, V1MicroTime } from '@kubernetes/client-node';
import { Bench } from 'tinybench';
import { countFromEnv, countsFromEnv } from '../../../scripts/bench-ratio.js';
import { LeaseManager, NodeLeaseClient } from '../dist/index.js';

const leaseCount = countFromEnv('CAPI_KIT_BENCH_LEASES', 1000);
const concurrencies = countsFromEnv('CAPI_KIT_BENCH_CONCURRENCY', [16, 64]);
const timing = { leaseDurationSeconds: 60 } as const;

const ms = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(2)} ms`);

function quantiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), min: sorted[0], max: sorted.at(-1) };
}

const plane = await startControlPlane({ backend: 'local', log: () => {} });
try {
  const namespace = await plane.createNamespace('lease-bench');
  const api = plane.kubeConfig.makeApiClient(CoordinationV1Api);
  const client = new NodeLeaseClient({
    kubeConfig: plane.kubeConfig,
    namespace,
    holderIdentity: 'bench',
    timing,
  });
  console.log(`Node ${process.version}; lease namespace ${namespace}`);

  // Fixtures: a lease for the bare calls, one held by the client for renew, one it
  // re-acquires after each release.
  let bare: V1Lease = await api.createNamespacedLease({
    namespace,
    body: {
      metadata: { name: 'bare' },
      spec: { holderIdentity: 'bench', leaseDurationSeconds: 60, renewTime: new V1MicroTime() },
    },
  });
  await client.tryAcquire('renewed');
  await client.tryAcquire('acquired');

  const bench = new Bench({ time: 4000, iterations: 100, warmupIterations: 10 });
  bench
    .add('client-node readNamespacedLease (GET)', async () => {
      await api.readNamespacedLease({ name: 'bare', namespace });
    })
    .add('client-node replaceNamespacedLease (PUT with resourceVersion)', async () => {
      bare = await api.replaceNamespacedLease({
        name: 'bare',
        namespace,
        body: { ...bare, spec: { ...bare.spec, renewTime: new V1MicroTime() } },
      });
    })
    .add('NodeLeaseClient.renew (held: one PUT)', async () => {
      const result = await client.renew('renewed');
      if (!result.renewed) throw new Error('renew failed');
    })
    .add(
      'NodeLeaseClient.tryAcquire (free lease: GET + PUT)',
      async () => {
        const result = await client.tryAcquire('acquired');
        if (!result.acquired) throw new Error('acquire failed');
      },
      {
        // Not timed: gives the lease back so that every iteration takes a free lease.
        beforeEach: async () => {
          await client.release('acquired');
        },
      },
    );
  await bench.run();

  console.log('\n| operation | samples | p50 | p99 | mean |');
  console.log('|---|---|---|---|---|');
  for (const task of bench.tasks) {
    const result = task.result as {
      latency?: { p50: number; p99: number; mean: number; samplesCount?: number };
      error?: unknown;
    };
    if (result.latency === undefined) {
      console.log(`| ${task.name} | failed: ${String(result.error)} | | | |`);
      continue;
    }
    const samples = result.latency.samplesCount ?? task.runs;
    console.log(
      `| ${task.name} | ${samples} | ${ms(result.latency.p50)} | ${ms(result.latency.p99)} | ${ms(result.latency.mean)} |`,
    );
  }

  console.log(`\nLeaseManager over ${leaseCount} node leases (one renewal cycle = one PUT per lease):`);
  console.log('| concurrency | acquire all | renew cycle p50 | min | max | cycles |');
  console.log('|---|---|---|---|---|---|');
  for (const concurrency of concurrencies) {
    const fleetNamespace = await plane.createNamespace(`lease-fleet-${concurrency}`);
    const fleetClient = new NodeLeaseClient({
      kubeConfig: plane.kubeConfig,
      namespace: fleetNamespace,
      holderIdentity: 'fleet',
      timing,
    });
    const manager = new LeaseManager(fleetClient, { concurrency });
    const nodes = Array.from({ length: leaseCount }, (_, i) => `node-${String(i).padStart(4, '0')}`);
    let t = performance.now();
    await Promise.all(nodes.map((node) => manager.hold(node)));
    const acquireAll = performance.now() - t;
    const cycles: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      const report = await manager.renewAll();
      cycles.push(performance.now() - t);
      if (report.renewed !== leaseCount) throw new Error(`cycle renewed ${report.renewed}/${leaseCount}`);
    }
    const q = quantiles(cycles);
    console.log(
      `| ${concurrency} | ${ms(acquireAll)} | ${ms(q.p50)} | ${ms(q.min)} | ${ms(q.max)} | ${cycles.length} |`,
    );
    await manager.stop();
  }
} finally {
  await plane.stop();
}
