// The one way benchmarks report their headline comparisons: `RATIO <key> <x>`, where x is
// capi-kit's time per operation divided by the baseline's, both measured in the same run.
// A missing or non-finite figure is an error (the run exits non-zero), never a NaN line.
import type { Bench } from 'tinybench';

/** Mean time per operation (ms) of the task named `name`; throws when it has no result. */
export function meanMs(bench: Bench, name: string): number {
  const task = bench.tasks.find((t) => t.name === name);
  if (task === undefined) throw new Error(`benchmark: no task named ${JSON.stringify(name)}`);
  const result = task.result;
  if (!('latency' in result) || !Number.isFinite(result.latency.mean) || result.latency.mean <= 0) {
    const why = 'error' in result ? `: ${String(result.error)}` : ` (state ${result.state})`;
    throw new Error(`benchmark: task ${JSON.stringify(name)} has no timing${why}`);
  }
  return result.latency.mean;
}

/** Prints `RATIO <key> <ours ÷ baseline>`; both are times per operation from the same run. */
export function printRatio(key: string, ours: number, baseline: number): number {
  const ratio = ours / baseline;
  if (!Number.isFinite(ratio) || ratio <= 0) {
    throw new Error(`benchmark: RATIO ${key} is not a finite positive number (${ours} / ${baseline})`);
  }
  console.log(`RATIO ${key} ${ratio.toFixed(3)}`);
  return ratio;
}
