import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findOverlaps, OwnershipHistory, type Tenure } from './helpers/ownership-history.js';

describe('history checker', () => {
  it('accepts back-to-back tenures of different holders', () => {
    const history = new OwnershipHistory();
    history.begin('a', 0);
    history.end('a', 10);
    history.begin('b', 10);
    history.end('b', 20);
    history.begin('a', 25);
    expect(history.overlaps()).toEqual([]);
  });

  it('reports two holders whose beliefs intersect', () => {
    const overlaps = findOverlaps([
      { holder: 'a', startMs: 0, endMs: 10 },
      { holder: 'b', startMs: 9, endMs: 20 },
    ]);
    expect(overlaps).toHaveLength(1);
    expect(overlaps[0]?.first.holder).toBe('a');
    expect(overlaps[0]?.second.holder).toBe('b');
  });

  it('reports a tenure nested inside a long one, and an open tenure overlapping a later one', () => {
    expect(
      findOverlaps([
        { holder: 'a', startMs: 0, endMs: 100 },
        { holder: 'b', startMs: 20, endMs: 30 },
        { holder: 'c', startMs: 50, endMs: 60 },
      ]),
    ).toHaveLength(2);
    const history = new OwnershipHistory();
    history.begin('a', 0);
    history.begin('b', 1_000_000);
    expect(history.overlaps()).toHaveLength(1);
  });

  it('rejects inconsistent recordings', () => {
    const history = new OwnershipHistory();
    history.begin('a', 0);
    expect(() => history.begin('a', 1)).toThrow(/twice/);
    expect(() => history.end('b', 1)).toThrow(/never began/);
  });

  it('agrees with a brute-force pairwise check', () => {
    const tenure = fc
      .record({
        holder: fc.constantFrom('a', 'b', 'c'),
        startMs: fc.integer({ min: 0, max: 50 }),
        len: fc.integer({ min: 0, max: 20 }),
      })
      .map(({ holder, startMs, len }): Tenure => ({ holder, startMs, endMs: startMs + len }));
    fc.assert(
      fc.property(fc.array(tenure, { maxLength: 12 }), (tenures) => {
        let expected = 0;
        for (let i = 0; i < tenures.length; i++) {
          for (let j = i + 1; j < tenures.length; j++) {
            const x = tenures[i]!;
            const y = tenures[j]!;
            if (x.holder !== y.holder && x.startMs < y.endMs && y.startMs < x.endMs) expected++;
          }
        }
        expect(findOverlaps(tenures)).toHaveLength(expected);
      }),
    );
  });
});
