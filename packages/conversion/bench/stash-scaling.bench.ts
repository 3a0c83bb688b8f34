// Linear time in the size of a conversion stash (issue #12): the stash's `generated` list
// against its entries, and the whole per-entry path a conversion runs, at 10,000 / 40,000 /
// 80,000 entries. `RATIO …/80k-over-10k` is the 80,000 time ÷ the 10,000 time: linear ≈ 8,
// quadratic ≈ 64.
//
//   pnpm --filter @capi-kit/conversion bench
//   node --conditions=@capi-kit/source --import tsx packages/conversion/bench/stash-scaling.bench.ts
//
// These sizes are above what a real object can carry: the API server caps all annotations of
// an object at 256 KiB, and `takeStash` refuses a larger stash before any of this runs (10,000
// entries already encode to ~400 KiB), while `checkGenerated` allows only the paths a plug-in
// fills in (two). So the library functions are called directly, on decoded stashes, to
// measure the algorithms themselves rather than the cap.
import { measureScaling } from '../../../scripts/bench-scaling.js';
import { KIND_TABLES, tableStashRules } from '../dist/kind-table.js';
import type { Json, JsonObject } from '../dist/path.js';
import { applyStash, type StashEntry, withoutGenerated } from '../dist/stash.js';
import { checkEntry, checkGenerated, partitionStashEntries } from '../dist/stash-rules.js';

const rules = tableStashRules(KIND_TABLES.Machine);

// 1. `withoutGenerated` with as many generated paths as entries: half the entries lie under a
//    generated path (dropped), half do not. Comparing every entry with every generated path
//    made this entries × generated.
await measureScaling('stash-generated-filter', 'entries', (size) => {
  const spec: JsonObject = {};
  const generated: { path: string[]; value: Json }[] = [];
  const entries: StashEntry[] = [];
  for (let i = 0; i < size; i++) {
    // (references a plug-in made name the object: `withoutGenerated` checks that too)
    spec[`ref${i}`] = { name: 'm' };
    generated.push({ path: ['spec', `ref${i}`], value: { name: 'm' } });
    entries.push(
      i % 2 === 0
        ? { path: ['spec', `ref${i}`, 'namespace'], value: 'default' }
        : { path: ['metadata', 'labels', `key-${i}`], value: `value-${i}` },
    );
  }
  const object: JsonObject = { spec };
  return () => {
    const kept = withoutGenerated(entries, object, { name: 'm' }, generated);
    if (kept.length !== size / 2) throw new Error(`kept ${kept.length} of ${size}`);
  };
});

// 2. What a conversion does per stash entry once the annotation is decoded (convert.ts): check
//    every entry against the hop's rules, check the `generated` list, apply the entries, drop
//    those under generated paths, and sort the next stash's entries into kept and refused.
//    Entries are labels the conversion dropped (`metadata.labels` is in the Machine table).
await measureScaling('stash-entries-path', 'entries', (size) => {
  const entries: StashEntry[] = [];
  for (let i = 0; i < size; i++) entries.push({ path: ['metadata', 'labels', `key-${i}`], value: `v${i}` });
  const generated = rules.generated.map((path) => ({
    path: [...path],
    value: { name: 'm', namespace: 'default' } as Json,
  }));
  return () => {
    for (const entry of entries) {
      const refusal = checkEntry(entry, rules, 'default');
      if (refusal !== undefined) throw new Error(refusal.message);
    }
    if (checkGenerated(generated, rules) !== undefined) throw new Error('generated refused');
    const target: JsonObject = { metadata: { name: 'm', namespace: 'default', labels: {} }, spec: {} };
    const { applied } = applyStash(target, entries);
    const remaining = withoutGenerated(applied, target, { name: 'm', namespace: 'default' }, generated);
    const { kept } = partitionStashEntries(remaining, rules, 'default');
    if (kept.length !== size) throw new Error(`kept ${kept.length} of ${size}`);
  };
});
