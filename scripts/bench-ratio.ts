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

/**
 * A positive whole number from the environment variable `name`, or `fallback` when it is
 * unset. Anything else ends the run with one line naming the variable: a NaN or fractional
 * count would otherwise run no rounds (and fail later, far from the cause) or round silently.
 */
export function countFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  return countOrExit(name, text, text);
}

/** `countFromEnv` for a comma-separated list (`16,64`): every item a positive whole number. */
export function countsFromEnv(name: string, fallback: readonly number[]): number[] {
  const text = process.env[name];
  if (text === undefined || text === '') return [...fallback];
  return text.split(',').map((item) => countOrExit(name, item.trim(), text));
}

function countOrExit(name: string, item: string, text: string): number {
  const value = item === '' ? Number.NaN : Number(item);
  if (!Number.isSafeInteger(value) || value <= 0) {
    const what =
      item === text ? 'a positive whole number' : 'a comma-separated list of positive whole numbers';
    console.error(`benchmark: ${name} must be ${what}, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

/** One timed operation of an interleaved run: `run` does one batch of the work. */
export interface InterleavedTask {
  readonly name: string;
  readonly run: () => void;
}

/**
 * Times every task round by round, each round running each task once (the order rotating from
 * round to round), and answers each task's median batch time (ms). Run one after another
 * instead (as tinybench does), a task and its baseline see different heaps and JIT states,
 * and the ratio between them moved by a third from one run to the next here; interleaved,
 * both see the same drift. Warm-up rounds are run and not timed.
 */
export function interleavedMedians(
  tasks: readonly InterleavedTask[],
  options: { readonly rounds: number; readonly warmupRounds: number },
): Map<string, number> {
  const times = tasks.map(() => [] as number[]);
  for (let round = 0; round < options.warmupRounds + options.rounds; round++) {
    for (let k = 0; k < tasks.length; k++) {
      const i = (round + k) % tasks.length;
      const start = performance.now();
      tasks[i]!.run();
      const elapsed = performance.now() - start;
      if (round >= options.warmupRounds) times[i]!.push(elapsed);
    }
  }
  const medians = new Map<string, number>();
  tasks.forEach((task, i) => {
    const sorted = times[i]!.sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1];
    if (median === undefined || !Number.isFinite(median) || median <= 0) {
      throw new Error(`benchmark: task ${JSON.stringify(task.name)} has no timing`);
    }
    medians.set(task.name, median);
  });
  return medians;
}
