// Linear time on wide mappings (issue #12): readManifest of one object whose labels have
// 10,000 / 40,000 / 80,000 keys, against the bare `yaml` parse of the same text with its
// quadratic duplicate-key check off (the floor: the reader adds its own linear checks on top).
// Before, the `yaml` package's own check made 80,000 keys take 44 s.
//
//   pnpm --filter @capi-kit/core bench
import { parseAllDocuments } from 'yaml';
import { printRatio } from '../../../scripts/bench-ratio.js';
import { wideLabelsMachine } from '../../../scripts/bench-scaling.js';
import { readManifest } from '../dist/manifest/index.js';

function ms(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const figures: { keys: number; ours: number; bare: number }[] = [];
ms(() => readManifest(wideLabelsMachine(2000))); // warm-up
for (const keys of [10_000, 40_000, 80_000]) {
  const t = wideLabelsMachine(keys);
  const bare = ms(() => parseAllDocuments(t, { version: '1.1', uniqueKeys: false }));
  const ours = ms(() => {
    const read = readManifest(t);
    if (read._tag === 'Left') throw new Error(JSON.stringify(read.left));
  });
  figures.push({ keys, ours, bare });
  console.log(`${keys} keys: readManifest ${ours.toFixed(0)} ms, bare yaml parse ${bare.toFixed(0)} ms`);
}
const first = figures[0]!;
const last = figures[figures.length - 1]!;
console.log(
  `per key: ${((first.ours / first.keys) * 1000).toFixed(1)} µs at ${first.keys}, ${((last.ours / last.keys) * 1000).toFixed(1)} µs at ${last.keys}`,
);
printRatio('read-80k-keys/bare-yaml-parse', last.ours, last.bare);
