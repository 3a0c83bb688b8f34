// Start-up time of the installed CLI: `capi-kit --version` (the built dist/bin.js, as npm
// installs it) against `node -e 0`, the floor every Node program pays. Runs alternate so a
// change in the machine's load hits both sides alike; the ratio of the medians is the figure.
//
//   pnpm --filter @capi-kit/cli bench
//
// CAPI_KIT_BENCH_RUNS (default 40) sets the number of runs of each. Needs `pnpm build` first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { countFromEnv, printRatio } from '../../../scripts/bench-ratio.js';

const runs = countFromEnv('CAPI_KIT_BENCH_RUNS', 40);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(bin)) throw new Error(`${bin} is missing: run pnpm build first`);

function wallMs(args: readonly string[], expect: RegExp): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0 || !expect.test(run.stdout)) {
    throw new Error(`node ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  }
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const cli: number[] = [];
const bare: number[] = [];
// One warm-up run each: it fills the module compile cache and the OS file cache.
wallMs([bin, '--version'], /^\d+\.\d+\.\d+/);
wallMs(['-e', '0'], /^$/);
for (let i = 0; i < runs; i++) {
  cli.push(wallMs([bin, '--version'], /^\d+\.\d+\.\d+/));
  bare.push(wallMs(['-e', '0'], /^$/));
}

console.log(`Node ${process.version}, ${runs} runs each, alternating`);
console.log('| command | median | min | max |');
console.log('|---|---|---|---|');
for (const [label, xs] of [
  ['capi-kit --version (dist/bin.js)', cli],
  ['node -e 0', bare],
] as const) {
  console.log(
    `| ${label} | ${median(xs).toFixed(1)} ms | ${Math.min(...xs).toFixed(1)} ms | ${Math.max(...xs).toFixed(1)} ms |`,
  );
}
printRatio('cli-startup/node-e-0', median(cli), median(bare));
