import { describe, expect, it } from 'vitest';
import { createProviderIDRegistry, ProviderIDIndex } from '../src/index.js';
import { numbered, regional } from './toy-grammars.js';

const registry = createProviderIDRegistry([numbered, regional]);
const entries = (ids: string[]) => ids.map((providerID) => ({ providerID, item: providerID }));

describe('ProviderIDIndex', () => {
  it('pairs nodes with machines by identity, not by string', () => {
    const index = new ProviderIDIndex(registry, entries(['num://1', 'regional://r1/a', 'foo://x/y']));
    const report = index.match(entries(['oldnum://01', 'regional:///a', 'foo:///x/y', 'num://9']));
    expect(report.matched.map((p) => [p.node, p.machine])).toEqual([
      ['oldnum://01', 'num://1'],
      ['regional:///a', 'regional://r1/a'],
      ['foo:///x/y', 'foo://x/y'],
    ]);
    expect(report.unmatchedNodes).toEqual(['num://9']);
    expect(report.unmatchedMachines).toEqual([]);
    expect(report.ambiguous).toEqual([]);
  });

  it('never pairs different qualifiers', () => {
    const index = new ProviderIDIndex(registry, entries(['regional://r1/a']));
    const report = index.match(entries(['regional://r2/a']));
    expect(report.matched).toEqual([]);
    expect(report.unmatchedNodes).toEqual(['regional://r2/a']);
    expect(report.unmatchedMachines).toEqual(['regional://r1/a']);
  });

  it('reports a node that denotes several machines', () => {
    const index = new ProviderIDIndex(registry, entries(['regional://r1/a', 'regional://r2/a']));
    const report = index.match(entries(['regional:///a']));
    expect(report.matched).toEqual([]);
    expect(report.ambiguous).toEqual([
      {
        nodes: ['regional:///a'],
        machines: ['regional://r1/a', 'regional://r2/a'],
        reason: expect.any(String),
      },
    ]);
    expect(index.lookup('regional:///a')).toHaveLength(2);
    expect(index.lookup('regional://r1/a')).toEqual(['regional://r1/a']);
  });

  it('reports a machine that several nodes denote', () => {
    const index = new ProviderIDIndex(registry, entries(['num://5']));
    const report = index.match(entries(['num://5', 'oldnum://5']));
    expect(report.matched).toEqual([]);
    expect(report.ambiguous).toEqual([
      {
        nodes: ['num://5', 'oldnum://5'],
        machines: ['num://5'],
        reason: expect.stringContaining('several nodes'),
      },
    ]);
    expect(report.unmatchedMachines).toEqual([]);
  });

  it('keeps machines and nodes with empty IDs unmatched', () => {
    const index = new ProviderIDIndex(registry, entries(['', 'num://1']));
    expect(index.size).toBe(2);
    const report = index.match(entries(['', 'num://1']));
    expect(report.matched).toHaveLength(1);
    expect(report.unmatchedNodes).toEqual(['']);
    expect(report.unmatchedMachines).toEqual(['']);
    expect(index.lookup('')).toEqual([]);
  });

  it('matches a qualified node with an unqualified machine and with a same-region one', () => {
    const index = new ProviderIDIndex(registry, entries(['regional:///a', 'regional://r1/a']));
    expect(index.lookup('regional://r1/a')).toEqual(['regional://r1/a', 'regional:///a']);
    expect(index.lookup('regional://r2/a')).toEqual(['regional:///a']);
  });
});
