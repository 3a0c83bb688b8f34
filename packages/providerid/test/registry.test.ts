import { isLeft, isRight, right } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { createProviderIDRegistry, GENERIC_CLOUD } from '../src/index.js';
import { numbered, regional } from './toy-grammars.js';

const registry = createProviderIDRegistry([numbered, regional]);

const parse = (input: string, cloud?: string) => registry.parse(input, cloud === undefined ? {} : { cloud });

describe('ProviderIDRegistry.parse', () => {
  it('routes by scheme and returns fields, key and canonical form', () => {
    const result = parse('oldnum://0042');
    expect(result).toEqual(
      right(
        expect.objectContaining({
          cloud: 'numbered',
          scheme: 'oldnum',
          fields: { scheme: 'oldnum', serverId: '0042' },
          key: 'numbered|42',
          canonical: 'oldnum://0042',
        }),
      ),
    );
  });

  it('builds the identity and keys on first read, once', () => {
    let calls = 0;
    const counting = createProviderIDRegistry([
      {
        ...numbered,
        identity: (fields) => {
          calls++;
          return numbered.identity(fields);
        },
      },
    ]);
    const result = counting.parse('num://007');
    if (!isRight(result)) throw new Error('expected num://007 to parse');
    expect(calls).toBe(0);
    const parsed = result.right;
    expect(parsed.key).toBe('numbered|7');
    expect(parsed.identity).toEqual({ space: 'numbered', parts: ['7'] });
    expect(JSON.parse(JSON.stringify(parsed))).toMatchObject({ key: 'numbered|7', canonical: 'num://007' });
    expect(counting.identify('num://007').key).toBe('numbered|7');
    expect(calls).toBe(2); // once for the parsed ID above, once for identify's own parse
  });

  it('types its errors', () => {
    const kinds = (input: string, cloud?: string) => {
      const r = parse(input, cloud);
      return isLeft(r) ? r.left.code : 'ok';
    };
    expect(kinds('')).toBe('empty');
    expect(kinds('   ')).toBe('empty');
    expect(kinds('12')).toBe('no-scheme');
    expect(kinds('12', 'nope')).toBe('unknown-cloud');
    expect(kinds('NUM://1')).toBe('wrong-scheme');
    expect(kinds('num:1')).toBe('malformed');
    expect(kinds('num://x1')).toBe('invalid-field');
    expect(kinds('num://99999999999999999999')).toBe('invalid-field');
    expect(kinds('regional://r/a/b')).toBe('invalid-field');
  });

  it('parses bare IDs only when the cloud is named or one shape claims them', () => {
    expect(isRight(parse('12', 'numbered'))).toBe(true);
    expect(parse('reg-1')).toEqual(right(expect.objectContaining({ cloud: 'regional', scheme: '' })));
  });

  it('reports unknown schemes, and applies the Cluster API generic grammar when named', () => {
    const unknown = parse('foo:///a/b');
    expect(isLeft(unknown) && unknown.left).toMatchObject({ code: 'unknown-scheme' });
    expect(isLeft(unknown) && unknown.left.message).toContain('fits Cluster API');
    const alsoBad = parse('foo://a/');
    expect(isLeft(alsoBad) && alsoBad.left.message).toContain('does not fit');
    expect(parse('foo:///a/b', GENERIC_CLOUD)).toEqual(
      right(
        expect.objectContaining({ cloud: GENERIC_CLOUD, fields: { scheme: 'foo', id: 'b', path: '/a/b' } }),
      ),
    );
    for (const bad of ['foo://', 'foo://a/', 'foo:a', '//x', '']) {
      expect(isLeft(parse(bad, GENERIC_CLOUD)), bad).toBe(true);
    }
    // Any scheme, even one a cloud owns, as Cluster API did.
    expect(parse('num:///x', GENERIC_CLOUD)).toEqual(
      right(expect.objectContaining({ cloud: GENERIC_CLOUD })),
    );
  });

  it('rejects a second grammar for a taken cloud or scheme', () => {
    expect(() => createProviderIDRegistry([numbered, numbered])).toThrow(/already registered/);
    expect(() =>
      createProviderIDRegistry([numbered, { ...regional, cloud: 'other', schemes: ['num'] }]),
    ).toThrow(/scheme 'num'/);
    // Tagged `code` like every capi-kit error.
    expect(() => createProviderIDRegistry([numbered, numbered])).toThrow(
      expect.objectContaining({ name: 'GrammarConflictError', code: 'cloud-taken' }),
    );
    expect(() =>
      createProviderIDRegistry([numbered, { ...regional, cloud: 'other', schemes: ['num'] }]),
    ).toThrow(expect.objectContaining({ code: 'scheme-taken' }));
  });
});

describe('ProviderIDRegistry.format', () => {
  it('writes the canonical string and honours a legacy scheme', () => {
    expect(registry.format('numbered', { serverId: '7' })).toEqual(right('num://7'));
    expect(registry.format('numbered', { serverId: 7, scheme: 'oldnum' })).toEqual(right('oldnum://7'));
  });

  it('fails for fields that make an invalid ID, and for unknown clouds', () => {
    const bad = registry.format('numbered', { serverId: 'x' });
    expect(isLeft(bad) && bad.left).toMatchObject({ code: 'invalid-field', field: 'serverId' });
    expect(isLeft(registry.format('numbered', {}))).toBe(true);
    expect(isLeft(registry.format('nope', { serverId: '1' }))).toBe(true);
  });
});

describe('ProviderIDRegistry.sameInstance', () => {
  const same = (a: string, b: string) => registry.sameInstance(a, b);

  it('matches legacy and current schemes and integer spellings', () => {
    expect(same('num://7', 'oldnum://007')).toMatchObject({ match: true, verdict: 'same' });
  });

  it('lets an unqualified ID match a qualified one, but not two different qualifiers', () => {
    expect(same('regional:///x', 'regional://r1/x')).toMatchObject({ match: true, verdict: 'same' });
    expect(same('regional://r1/x', 'regional://r2/x')).toMatchObject({ match: false, verdict: 'different' });
    expect(same('regional://r2/x', 'regional://r2/y').match).toBe(false);
  });

  it('compares strings no grammar accepts by scheme and non-empty segments', () => {
    expect(same('foo://a/b', 'foo:///a/b')).toMatchObject({ match: true, verdict: 'same' });
    expect(same('num://a/b', 'num:///a/b')).toMatchObject({ match: true });
    expect(same('foo://a/b', 'foo://a/c').match).toBe(false);
    expect(same('foo://a/b', 'bar://a/b').match).toBe(false);
    // A valid ID against an invalid one with the same segments: likely one instance, not claimed.
    expect(same('num://1', 'num:///1')).toMatchObject({ match: false, verdict: 'unknown' });
    expect(same('num://1', 'num:///2')).toMatchObject({ match: false, verdict: 'different' });
  });

  it('says "unknown" for empty IDs', () => {
    expect(same('', 'num://1')).toMatchObject({ match: false, verdict: 'unknown' });
    expect(same('num://1', ' ')).toMatchObject({ match: false, verdict: 'unknown' });
  });

  it('gives identical strings a match even when no grammar accepts them', () => {
    expect(same('not an id', 'not an id')).toMatchObject({ match: true, reason: 'identical strings' });
  });

  it('names a cloud in its reasons only when there is one', () => {
    // (it said "different a bare string instances: a vs b")
    expect(same('a', 'b')).toMatchObject({ verdict: 'different', reason: 'different instances: a vs b' });
    expect(same('foo://a', 'foo://b')).toMatchObject({ reason: 'different instances: a vs b' });
    expect(same('num://1', 'num://2')).toMatchObject({ reason: 'different numbered instances: 1 vs 2' });
  });
});

describe('ProviderIDRegistry.identityKeys', () => {
  it('gives identify()’s keys, per parse option', () => {
    const r = createProviderIDRegistry([numbered, regional]);
    for (const [input, cloud] of [
      ['oldnum://0042', undefined],
      ['num://42', undefined],
      ['regional://r1/a', undefined],
      ['regional:///a', undefined],
      ['42', 'numbered'],
      ['42', undefined],
      ['nope://x/y', undefined],
      ['', undefined],
    ] as const) {
      const options = cloud === undefined ? {} : { cloud };
      const id = r.identify(input, options);
      // Twice: the second answer comes from the memo.
      for (let i = 0; i < 2; i++) {
        const { key, unqualifiedKey } = r.identityKeys(input, options);
        expect({ key, unqualifiedKey }).toEqual({ key: id.key, unqualifiedKey: id.unqualifiedKey });
      }
    }
    expect(r.identityKeys('42', { cloud: 'numbered' }).key).not.toBe(r.identityKeys('42').key);
    // IDs of one instance share a cell, whatever their spelling.
    expect(r.identityKeys('oldnum://0042').cell).toBe(r.identityKeys('num://42').cell);
    // Blank strings are told apart from IDs (the index files neither machines nor nodes for them).
    for (const blank of ['', ' ', '\t\u3000']) expect(r.identityKeys(blank).blank).toBe(true);
    for (const id of ['num://42', ' num://42', 'x']) expect(r.identityKeys(id).blank).toBe(false);
  });

  it('forgets what it remembered when a grammar is registered', () => {
    const r = createProviderIDRegistry([numbered]);
    const before = r.identityKeys('regional://r1/a');
    const generation = r.memoGeneration;
    r.register(regional);
    const after = r.identityKeys('regional://r1/a');
    expect(r.memoGeneration).toBe(generation + 1);
    expect(after.key).not.toBe(before.key);
    expect(after.cell).not.toBe(before.cell);
    expect({ key: after.key, unqualifiedKey: after.unqualifiedKey }).toEqual({
      key: r.identify('regional://r1/a').key,
      unqualifiedKey: r.identify('regional://r1/a').unqualifiedKey,
    });
  });
});
