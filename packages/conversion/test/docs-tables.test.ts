import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KIND_TABLES } from '../src/kind-table.js';
import type { FieldMove } from '../src/moves.js';
import type { ConvertibleKind } from '../src/versions.js';

// docs/conversion.md's per-kind tables are read by people deciding whether a field survives
// an upgrade: they must name every field the move table touches, and nothing it does not.
const doc = readFileSync(new URL('../../../docs/conversion.md', import.meta.url), 'utf8');

/** The `### …` section of docs/conversion.md that has each kind's own rows. */
const HEADINGS: Readonly<Record<ConvertibleKind, string>> = {
  Cluster: 'Cluster',
  Machine: 'Machine (and the machine template of a MachineSet / MachineDeployment)',
  MachineSet: 'MachineSet and MachineDeployment',
  MachineDeployment: 'MachineSet and MachineDeployment',
};
/** Rows that hold for every kind (unless the row names its kinds). */
const EVERY_KIND = 'Every kind';
const KINDS = Object.keys(KIND_TABLES) as ConvertibleKind[];

interface DocRow {
  readonly from: string;
  readonly to: string;
  /** The kinds a row names before its first cell (`MachineSet: …`); undefined for all. */
  readonly kinds: readonly string[] | undefined;
}

/** `Cluster, Machine: <cell>`: a row that holds only for the kinds it names. */
const KIND_PREFIX = /^([A-Z][A-Za-z]*(?:, [A-Z][A-Za-z]*)*): /;

/** The table under `### <heading>`, as its first two cells (v1alpha1, v1alpha2) per row. */
function tableRows(heading: string): DocRow[] {
  const start = doc.indexOf(`\n### ${heading}\n`);
  if (start < 0) throw new Error(`docs/conversion.md has no "### ${heading}" section`);
  const end = doc.indexOf('\n#', start + 1);
  const lines = doc
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line));
  if (lines.length < 2) throw new Error(`"### ${heading}" has no table`);
  return lines.slice(1).map((row) => {
    const [from, to] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim()) as [string, string];
    const prefix = KIND_PREFIX.exec(from);
    const kinds = prefix === null ? undefined : prefix[1]!.split(', ');
    for (const kind of kinds ?? []) {
      if (!KINDS.includes(kind as ConvertibleKind)) throw new Error(`"${from}" names no kind: ${kind}`);
    }
    return { from: prefix ? from.slice(prefix[0].length) : from, to, kinds };
  });
}

/** The rows of docs/conversion.md that describe `kind`'s own fields. */
function rowsFor(kind: ConvertibleKind, headings: readonly string[]): DocRow[] {
  return headings.flatMap(tableRows).filter((row) => row.kinds === undefined || row.kinds.includes(kind));
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

const joined = (at: string, path: string) => (at === '' ? path : `${at}.${path}`);

/** The paths `moves` read or write. */
function movedPaths(moves: readonly FieldMove[]): string[] {
  return [...new Set(moves.flatMap((m) => [m.v1alpha1, m.v1alpha2]).filter((p) => p !== undefined))];
}

/** A move row with its paths below `at`, as seen from the object's root. */
function relocated(move: FieldMove, at: string): FieldMove {
  if (at === '') return move;
  return {
    ...move,
    ...(move.v1alpha1 === undefined ? {} : { v1alpha1: joined(at, move.v1alpha1) }),
    ...(move.v1alpha2 === undefined ? {} : { v1alpha2: joined(at, move.v1alpha2) }),
  };
}

// A documented path and a row path agree when one contains the other (the docs may name
// `spec.versions.controlPlane` for the row `spec.versions`, or `spec.bootstrap.configRef`
// for `spec.bootstrap`).
const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/**
 * Where doc rows and move rows disagree about the paths `scope` matches (empty lists when
 * they agree): paths moved but not documented, documented as changed but not moved, and
 * renames (among `renames`) that no doc row spells from → to.
 */
function disagreements(
  rows: readonly DocRow[],
  moves: readonly FieldMove[],
  scope: RegExp,
  renames: readonly FieldMove[] = moves,
) {
  const inScope = (paths: string[]) => paths.filter((p) => scope.test(p));
  const documented = inScope(rows.flatMap((r) => [...documentedPaths(r.from), ...documentedPaths(r.to)]));
  // Rows that say `same` are fields copied as they are, which need no move row.
  const changed = inScope(
    rows
      .filter((r) => r.to !== 'same')
      .flatMap((r) => [...documentedPaths(r.from), ...documentedPaths(r.to)]),
  );
  const moved = inScope(movedPaths(moves));
  const renamed = renames.flatMap(({ v1alpha1: from, v1alpha2: to }) =>
    from !== undefined && to !== undefined && from !== to && scope.test(from) ? [{ from, to }] : [],
  );
  const spelled = (r: DocRow, m: { from: string; to: string }) =>
    documentedPaths(r.from).some((d) => related(d, m.from)) &&
    documentedPaths(r.to).some((d) => related(d, m.to));
  return {
    undocumented: moved.filter((p) => !documented.some((d) => related(d, p))),
    notMoved: changed.filter((d) => !moved.some((p) => related(d, p))),
    renamesNotDocumented: renamed
      .filter((m) => !rows.some((r) => spelled(r, m)))
      .map((m) => `${m.from} -> ${m.to}`),
  };
}

const NOTHING_WRONG = { undocumented: [], notMoved: [], renamesNotDocumented: [] };

describe.each(KINDS)('docs/conversion.md: the %s table', (kind) => {
  const table = KIND_TABLES[kind];

  it('names every field the move table touches, nothing it leaves alone, and every rename', () => {
    const rows = rowsFor(kind, [EVERY_KIND, HEADINGS[kind]]);
    // The kind's own section covers the whole object; a nested group (a machine template)
    // may be covered there by one row naming the group's path, its renames by the test below.
    const moves = table.groups.flatMap((g) => g.moves.map((m) => relocated(m, g.at)));
    const topLevel = table.groups.filter((g) => g.at === '').flatMap((g) => g.moves);
    expect(disagreements(rows, moves, /^(spec|status)\./, topLevel)).toEqual(NOTHING_WRONG);
  });

  // A machine template converts as a Machine: the Machine section describes its rows. A
  // template stamps out metadata and spec; it has no status.
  for (const group of table.groups.filter((g) => g.at !== '')) {
    it(`describes its machine template (${group.at}) in the Machine section`, () => {
      expect(group.at).toBe(table.infrastructure.at);
      const rows = rowsFor('Machine', [HEADINGS.Machine]);
      expect(disagreements(rows, group.moves, /^spec\./)).toEqual(NOTHING_WRONG);
    });
  }
});

it('has a section for every kind the conversion knows', () => {
  for (const kind of KINDS) expect(() => tableRows(HEADINGS[kind])).not.toThrow();
});
