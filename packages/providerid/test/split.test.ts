import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonEmptySegments, splitProviderID } from '../src/kit.js';
import { isBlank } from '../src/split.js';

describe('splitProviderID', () => {
  it('takes the scheme before the first colon and the "://" separator', () => {
    expect(splitProviderID('aws:///us-east-1a/i-1')).toEqual({
      input: 'aws:///us-east-1a/i-1',
      scheme: 'aws',
      separator: '://',
      rest: '/us-east-1a/i-1',
    });
  });

  it('keeps a single-colon form (kwok:<node>) apart from "://"', () => {
    expect(splitProviderID('kwok:node-1')).toMatchObject({ scheme: 'kwok', separator: ':', rest: 'node-1' });
    expect(splitProviderID('hcloud::1')).toMatchObject({ scheme: 'hcloud', separator: ':', rest: ':1' });
  });

  it('treats strings without a URI scheme as bare', () => {
    for (const input of ['cn-hangzhou.i-1', '/subscriptions/x', '//instance-id', ':x', '1abc:def', '']) {
      expect(splitProviderID(input)).toEqual({ input, scheme: '', separator: '', rest: input });
    }
  });

  it('lists non-empty segments regardless of slash counts', () => {
    expect(nonEmptySegments('//a///b/')).toEqual(['a', 'b']);
    expect(nonEmptySegments('')).toEqual([]);
  });
});

describe('isBlank', () => {
  // Every character String.prototype.trim removes, and neighbours of the ASCII fast path.
  const spaces = [...' \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];
  const edges = ['\u0000', '\u001f', '!', '~', '\u007f', '\u0080', '\u200b', 'a', '/', 'é', '\ud800'];
  const text = fc.oneof(
    fc.string({ unit: fc.constantFrom(...spaces, ...edges) }),
    fc.string({ unit: 'binary' }),
    fc.string(),
  );

  it('is s.trim() === "" on any string', () => {
    fc.assert(
      fc.property(text, (s) => isBlank(s) === (s.trim() === '')),
      { numRuns: 20_000 },
    );
    for (const s of ['', ' ', '\u3000', '\ufeff a', 'a ', ' a', '\u0000'])
      expect(isBlank(s)).toBe(s.trim() === '');
  });
});
