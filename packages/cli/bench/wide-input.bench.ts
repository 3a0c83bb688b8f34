// `capi-kit validate` on one mapping with 10,000 / 40,000 / 80,000 keys (issue #12: 80,000
// keys, under 1 MB, took 44 s because of the YAML library's duplicate-key check; here 80,000
// keys are 2.1 MB). The command runs in process (main(): the CLI's reading, decoding and
// reporting, no process start-up), reading the manifest from standard input.
// `RATIO validate-wide-mapping/80k-over-10k` is the 80,000 time ÷ the 10,000 time: linear ≈ 8,
// quadratic ≈ 64.
//
//   pnpm --filter @capi-kit/cli bench
//   node --conditions=@capi-kit/source --import tsx packages/cli/bench/wide-input.bench.ts
import { measureScaling, wideLabelsMachine } from '../../../scripts/bench-scaling.js';
import type { CliIO } from '../dist/io.js';
import { main } from '../dist/main.js';

await measureScaling('validate-wide-mapping', 'keys', (keys) => {
  const text = wideLabelsMachine(keys);
  return async () => {
    const err: string[] = [];
    const io: CliIO = { stdout: () => {}, stderr: (t) => err.push(t), readStdin: async () => text, env: {} };
    const code = await main(['validate', '-f', '-'], io);
    if (code !== 0) throw new Error(`validate exited ${code}: ${err.join('')}`);
  };
});
