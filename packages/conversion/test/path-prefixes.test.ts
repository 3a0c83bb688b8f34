import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrefix, type Json } from '../src/path.js';
import { PathPrefixes } from '../src/path-prefixes.js';
import { withoutGenerated } from '../src/stash.js';

// Few distinct segments, so that paths often share prefixes.
const path = fc.array(fc.constantFrom('spec', 'metadata', 'labels', 'ref', 'a', ''), { maxLength: 5 });

describe('PathPrefixes', () => {
  it('answers as comparing the path with every prefix would', () => {
    fc.assert(
      fc.property(fc.array(path, { maxLength: 12 }), fc.array(path, { maxLength: 30 }), (prefixes, paths) => {
        const set = new PathPrefixes(prefixes);
        for (const p of paths) expect(set.coversPath(p)).toBe(prefixes.some((q) => isPrefix(q, p)));
      }),
    );
  });

  it('the empty path covers everything; an empty set covers nothing', () => {
    expect(new PathPrefixes([[]]).coversPath(['spec', 'x'])).toBe(true);
    expect(new PathPrefixes([]).coversPath([])).toBe(false);
    expect(new PathPrefixes([['spec', 'ref']]).coversPath(['spec'])).toBe(false);
  });
});

describe('withoutGenerated', () => {
  it('drops the entries under generated paths while those still hold their generated values', () => {
    const id = { name: 'm' };
    const object = { spec: { infrastructureRef: { name: 'm' }, bootstrap: { configRef: { name: 'm' } } } };
    const generated: { path: string[]; value: Json }[] = [
      { path: ['spec', 'infrastructureRef'], value: { name: 'm' } },
      { path: ['spec', 'bootstrap'], value: { configRef: { name: 'm' } } },
    ];
    const entries = [
      { path: ['spec', 'infrastructureRef', 'namespace'], value: 'default' },
      { path: ['spec', 'bootstrapped'], value: true },
      { path: ['metadata', 'labels', 'a'], value: 'b' },
    ];
    expect(withoutGenerated(entries, object, id, generated)).toEqual(entries.slice(1));
    // Edited since: every entry is kept.
    const edited = { spec: { ...object.spec, infrastructureRef: { name: 'other' } } };
    expect(withoutGenerated(entries, edited, id, generated)).toEqual(entries);
    // The object renamed or moved since: the plug-in would name them otherwise, so every entry is kept.
    expect(withoutGenerated(entries, object, { name: 'renamed' }, generated)).toEqual(entries);
    expect(withoutGenerated(entries, object, { name: 'm', namespace: 'ns' }, generated)).toEqual(entries);
  });
});
