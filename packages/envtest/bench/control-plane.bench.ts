// Warm start/stop times of the local control plane (binaries already built), plus
// restartApiServer() and installing the nine Cluster API CRDs. Starts and stops a private
// control plane N times in sequence (CAPI_KIT_BENCH_RUNS, default 10) and prints
// median / p95 / min / max per phase.
//
//   pnpm --filter @capi-kit/envtest bench
//
// The cold start (building the binaries) is measured by scripts/build-control-plane.sh
// itself; see docs/benchmarks.md.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countFromEnv } from '../../../scripts/bench-ratio.js';
import { chooseBackend, startControlPlane } from '../dist/index.js';

const runs = countFromEnv('CAPI_KIT_BENCH_RUNS', 10);
const crdRoot = join(import.meta.dirname, '../../../testdata/crds');

function summary(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return `| ${name} | ${samples.length} | ${f(at(0.5))} | ${f(at(0.95))} | ${f(sorted[0] ?? Number.NaN)} | ${f(sorted.at(-1) ?? Number.NaN)} |`;
}

const choice = await chooseBackend({ backend: 'local' });
if (!choice.chosen) {
  console.error(`no local control-plane binaries: ${choice.skipped.join('; ')}`);
  process.exit(1);
}
console.log(`backend: ${choice.chosen.summary}; ${runs} runs; Node ${process.version}`);

const start: number[] = [];
const stop: number[] = [];
const restart: number[] = [];
const crds: number[] = [];
for (let i = 0; i < runs; i++) {
  let t = performance.now();
  const plane = await startControlPlane({ backend: 'local', log: () => {} });
  start.push(performance.now() - t);
  try {
    if (existsSync(crdRoot)) {
      t = performance.now();
      await plane.installCRDs([join(crdRoot, 'v1alpha1'), join(crdRoot, 'v1alpha2')]);
      crds.push(performance.now() - t);
    }
    // Restarts are slower than starts; three samples are enough to see their size.
    if (i < 3) {
      t = performance.now();
      await plane.restartApiServer();
      restart.push(performance.now() - t);
    }
  } finally {
    t = performance.now();
    await plane.stop();
    stop.push(performance.now() - t);
  }
}

console.log('| phase | runs | median | p95 | min | max |');
console.log('|---|---|---|---|---|---|');
console.log(summary('start (etcd + kube-apiserver, to /readyz and namespace default)', start));
console.log(summary('install 9 Cluster API CRDs (converted, established, discoverable)', crds));
console.log(summary('restartApiServer()', restart));
console.log(summary('stop() (processes gone, directory removed)', stop));
