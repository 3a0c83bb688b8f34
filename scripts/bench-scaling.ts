// How a cost grows with input size: time one operation at 10,000 / 40,000 / 80,000 items and
// print `RATIO <key>/80k-over-10k <x>` (the 80,000-item time ÷ the 10,000-item time, same run).
// Linear work gives about 8, quadratic about 64. Wall time of whole runs (not tinybench):
// one run at 80,000 items can take seconds; the median of a few runs damps a loaded machine.
import { printRatio } from './bench-ratio.js';

export const SCALING_SIZES = [10_000, 40_000, 80_000] as const;

/**
 * Runs `prepare(size)` (untimed) and then the operation it returns `runs` times per size,
 * after one untimed warm-up at the smallest size; prints the median per size and the ratio.
 */
export async function measureScaling(
  key: string,
  unit: string,
  prepare: (size: number) => () => unknown,
  runs = 3,
): Promise<{ size: number; ms: number }[]> {
  await prepare(SCALING_SIZES[0])();
  const figures: { size: number; ms: number }[] = [];
  for (const size of SCALING_SIZES) {
    const operation = prepare(size);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint();
      await operation();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    const ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    figures.push({ size, ms });
    console.log(
      `${key}: ${size} ${unit}: ${ms.toFixed(1)} ms (median of ${runs}; ${((ms / size) * 1000).toFixed(2)} µs each)`,
    );
  }
  printRatio(`${key}/80k-over-10k`, figures[2]!.ms, figures[0]!.ms);
  return figures;
}

/** A v1alpha1 Machine whose labels have `keys` keys (80,000 keys: 2.1 MB of YAML). */
export function wideLabelsMachine(keys: number): string {
  const lines = [
    'apiVersion: cluster.k8s.io/v1alpha1',
    'kind: Machine',
    'metadata:',
    '  name: wide',
    '  labels:',
  ];
  for (let i = 0; i < keys; i++) lines.push(`    key-${i}: value-${i}`);
  return `${lines.join('\n')}\n`;
}
