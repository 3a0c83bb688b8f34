// Regenerates the CRD fixtures from upstream copies, without the description texts:
//   pnpm exec tsx packages/core/test/schemas/crds/refresh.ts /path/to/reference/crds
// The tests need the schemas, not the prose. (A property may be named `description`, as in
// v1alpha1 `status.lastOperation`; only string-valued `description` keys are dropped.)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, field]) => !(key === 'description' && typeof field === 'string'))
      .map(([key, field]) => [key, withoutDescriptions(field)]),
  );
}

const source = process.argv[2];
if (source === undefined) throw new Error('usage: refresh.ts REFERENCE_CRDS_DIR');
for (const version of ['v1alpha1', 'v1alpha2']) {
  for (const file of readdirSync(join(source, version)).filter((f) => f.endsWith('.yaml'))) {
    const crd = parse(readFileSync(join(source, version, file), 'utf8'));
    const target = join(import.meta.dirname, `${version}-${file}`);
    writeFileSync(target, stringify(withoutDescriptions(crd), { lineWidth: 0 }));
  }
}
