import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KIND_TABLES } from '../src/kind-table.js';

// docs/conversion.md's per-kind tables are read by people deciding whether a field survives
// an upgrade: they must name every field the move table touches, and nothing it does not.
const doc = readFileSync(new URL('../../../docs/conversion.md', import.meta.url), 'utf8');

/** The table under `### <heading>`, as its first two cells (v1alpha1, v1alpha2) per row. */
function tableRows(heading: string): [string, string][] {
  const start = doc.indexOf(`\n### ${heading}`);
  if (start < 0) throw new Error(`docs/conversion.md has no "### ${heading}" section`);
  const end = doc.indexOf('\n#', start + 1);
  const rows = doc
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1); // the header
  return rows.map((row) => {
    const [from, to] = row.split('|').slice(1, 3);
    return [from!.trim(), to!.trim()];
  });
}

// A cell that is only a list of code spans (`status.nodeRef`, `lastUpdated`, ...).
const LIST = /^`[^`]+`(\s*,\s*`[^`]+`)*$/;

/**
 * The `spec.` / `status.` paths a cell names: `spec.clusterNetwork.{services,pods}` is two,
 * and in a list such as `status.nodeRef`, `lastUpdated` the second shares the first's parent.
 */
function documentedPaths(cell: string): string[] {
  const out: string[] = [];
  const list = LIST.test(cell);
  let parent = '';
  for (const [, token] of cell.matchAll(/`([^`]+)`/g)) {
    const path = token!.split(/[\s:]/)[0]!;
    const full = path.includes('.') || !list || parent === '' ? path : `${parent}.${path}`;
    const brace = /^(.*)\.\{([^}]*)\}$/.exec(full);
    const expanded = brace ? brace[2]!.split(',').map((p) => `${brace[1]}.${p.trim()}`) : [full];
    for (const p of expanded) if (/^(spec|status)\./.test(p)) out.push(p);
    if (path.includes('.')) parent = path.slice(0, path.lastIndexOf('.'));
  }
  return out;
}

/** The `spec.` / `status.` paths the kind's top-level move rows read or write. */
function tablePaths(kind: 'Cluster' | 'Machine'): string[] {
  const rows = KIND_TABLES[kind].groups.filter((g) => g.at === '').flatMap((g) => g.moves);
  const paths = rows.flatMap((m) => [m.v1alpha1, m.v1alpha2]).filter((p) => p !== undefined);
  return [...new Set(paths.filter((p) => /^(spec|status)\./.test(p)))];
}

// A documented path and a row path agree when one contains the other (the docs may name
// `spec.versions.controlPlane` for the row `spec.versions`, or `spec.bootstrap.configRef`
// for `spec.bootstrap`).
const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

describe.each([
  ['Cluster', 'Cluster'],
  ['Machine', 'Machine (and the machine template of a MachineSet / MachineDeployment)'],
] as const)('docs/conversion.md: the %s table', (kind, heading) => {
  const rows = [...tableRows('Every kind'), ...tableRows(heading)];
  const documented = rows.flatMap(([from, to]) => [...documentedPaths(from), ...documentedPaths(to)]);
  // Rows that say `same` are fields copied as they are, which need no move row.
  const changed = rows
    .filter(([, to]) => to !== 'same')
    .flatMap(([from, to]) => [...documentedPaths(from), ...documentedPaths(to)]);
  const moved = tablePaths(kind);

  it('names every field the move table touches', () => {
    expect(moved.filter((p) => !documented.some((d) => related(d, p)))).toEqual([]);
  });

  it('names no changed field the move table leaves alone', () => {
    expect(changed.filter((d) => !moved.some((p) => related(d, p)))).toEqual([]);
  });
});
