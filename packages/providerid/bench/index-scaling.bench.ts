// Linear time in ProviderIDIndex's groups: 10,000 / 40,000 / 80,000 machines and as many
// nodes, all of one AWS instance ID in as many zones (`aws:///zone-<i>/i-0123456789abcdef0`),
// so every machine lies in one group and every node is qualified. Each node scanned the whole
// group until the group was split by key: 20,000 of each took 6.6 s. `RATIO
// providerid-index-one-instance/80k-over-10k`: linear ≈ 8, quadratic ≈ 64.
//
//   pnpm --filter @capi-kit/providerid bench
//
// (and below: machines and nodes that all share one key)
import { measureScaling } from '../../../scripts/bench-scaling.js';
import { createProviderIDIndex } from '../dist/index.js';

// Each run gets IDs of its own instance: the registry's memo of parsed IDs is bounded, so
// reusing one set would time memo hits at the small sizes and misses at the large ones.
let instance = 0;
await measureScaling('providerid-index-one-instance', 'machines and nodes', (size) => {
  const sets = Array.from({ length: 3 }, () => {
    const id = `i-${(instance++).toString(16).padStart(17, '0')}`;
    return Array.from({ length: size }, (_, i) => ({ providerID: `aws:///zone-${i}/${id}`, item: i }));
  });
  let run = 0;
  return () => {
    const entries = sets[run++ % sets.length]!;
    const report = createProviderIDIndex(entries).match(entries);
    if (report.matched.length !== size) throw new Error(`matched ${report.matched.length} of ${size}`);
  };
});

// Machines and nodes that all share one key (`aws:///zone-a/<id>`, as many of each): every
// node denotes every machine, so the report has one ambiguous group per node. Each group
// had a list of its own of every machine (and each node counted a claim on each machine):
// M × N, 10,000 of each 100 million slots, and 40,000 ran out of memory. The nodes of one
// key now share one list. `RATIO providerid-index-one-key/80k-over-10k`: linear ≈ 8.
await measureScaling('providerid-index-one-key', 'machines and nodes', (size) => {
  const sets = Array.from({ length: 3 }, () => {
    const providerID = `aws:///zone-a/i-${(instance++).toString(16).padStart(17, '0')}`;
    return Array.from({ length: size }, (_, i) => ({ providerID, item: i }));
  });
  let run = 0;
  return () => {
    const entries = sets[run++ % sets.length]!;
    const report = createProviderIDIndex(entries).match(entries);
    if (report.ambiguous.length !== size)
      throw new Error(`${report.ambiguous.length} groups for ${size} nodes`);
  };
});
