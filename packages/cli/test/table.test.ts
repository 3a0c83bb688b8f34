import { describe, expect, it } from 'vitest';
import { age, cellText, formatTable, MAX_PADDED_WIDTH } from '../src/table.js';
import { printable } from '../src/text.js';

describe('kubectl-style tables', () => {
  it('pads columns to their widest cell, three spaces apart, no trailing spaces', () => {
    expect(
      formatTable(
        ['NAME', 'PHASE'],
        [
          ['a', 'running'],
          ['long-name', ''],
        ],
      ),
    ).toBe('NAME        PHASE\na           running\nlong-name\n');
  });

  it('pads 200,000 rows (spreading their cells as arguments overflowed the stack)', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => [`m-${i}`, 'running']);
    const text = formatTable(['NAME', 'PHASE'], rows);
    expect(text.split('\n')[200_000]).toBe('m-199999   running');
  });

  it('a cell longer than MAX_PADDED_WIDTH is written whole but pads no other row (output stays linear)', () => {
    // One served 1 MB providerID beside 1,000 Machines made every row 1 MB wide: 1 GB of output.
    const long = 'x'.repeat(1_000_000);
    const rows = Array.from({ length: 1_000 }, (_, i) => [`m-${i}`, i === 500 ? long : `id-${i}`, 'Running']);
    const text = formatTable(['NAME', 'PROVIDERID', 'PHASE'], rows);
    expect(text.length).toBeLessThan(1_000_000 + 1_000 * 40);
    const lines = text.split('\n');
    expect(lines[0]).toBe('NAME    PROVIDERID   PHASE');
    expect(lines[1]).toBe('m-0     id-0         Running');
    expect(lines[501]).toBe(`m-500   ${long}   Running`);
    // Up to the limit a cell still widens its column.
    const atLimit = 'y'.repeat(MAX_PADDED_WIDTH);
    const padded = formatTable(
      ['A', 'B'],
      [
        [atLimit, '1'],
        ['a', '2'],
      ],
    ).split('\n');
    expect(padded[2]).toBe(`${'a'.padEnd(MAX_PADDED_WIDTH)}   2`);
  });

  it('shows a loosely typed field of an object or list as its JSON, not [object Object]', () => {
    expect(cellText({ name: 'n', uid: 1 })).toBe('{"name":"n","uid":1}');
    expect(cellText(['a', 2])).toBe('["a",2]');
    expect([cellText('x'), cellText(1.5), cellText(false), cellText(null), cellText(undefined)]).toEqual([
      'x',
      '1.5',
      'false',
      '',
      '',
    ]);
  });

  it("prints ages as kubectl's HumanDuration does", () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
    expect(
      [
        45,
        119,
        330,
        720,
        5 * 3600 + 180,
        20 * 3600,
        3 * 86400 + 4 * 3600,
        45 * 86400,
        800 * 86400,
        9 * 365 * 86400,
      ].map((s) => age(ago(s), now)),
    ).toEqual(['45s', '119s', '5m30s', '12m', '5h3m', '20h', '3d4h', '45d', '2y70d', '9y']);
    expect(age(undefined, now)).toBe('<unknown>');
    expect(age('yesterday', now)).toBe('<unknown>');
  });

  it('escapes control characters from the cluster', () => {
    expect(printable('a\u001b[31mb\nc\u007f\u0085')).toBe('a\\x1b[31mb\\x0ac\\x7f\\x85');
    expect(printable('plain ünïcode')).toBe('plain ünïcode');
  });
});
