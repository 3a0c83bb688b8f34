import { providerIDRegistry } from '@capi-kit/providerid';
import { describe, expect, it } from 'vitest';
import { clusterNameOf, ownerUIDsOf, ProviderIDIdentityIndex } from '../src/index.js';

describe('clusterNameOf', () => {
  it('reads a Cluster name, spec.clusterName, then the label of either version', () => {
    expect(clusterNameOf({ kind: 'Cluster', metadata: { name: 'prod' } })).toBe('prod');
    const labelled = (labels: Record<string, string>) => ({ kind: 'Machine', metadata: { labels } });
    expect(clusterNameOf(labelled({ 'cluster.x-k8s.io/cluster-name': 'new' }))).toBe('new');
    expect(clusterNameOf(labelled({ 'cluster.k8s.io/cluster-name': 'old' }))).toBe('old');
    expect(
      clusterNameOf(
        labelled({ 'cluster.k8s.io/cluster-name': 'old', 'cluster.x-k8s.io/cluster-name': 'new' }),
      ),
    ).toBe('new');
    expect(clusterNameOf({ kind: 'Machine', spec: { clusterName: 'spec' }, metadata: {} } as never)).toBe(
      'spec',
    );
    expect(clusterNameOf(labelled({}))).toBeUndefined();
    expect(
      ownerUIDsOf({ metadata: { ownerReferences: [{ apiVersion: 'v', kind: 'K', name: 'n', uid: 'u1' }] } }),
    ).toEqual(['u1']);
  });
});

describe('ProviderIDIdentityIndex', () => {
  it('finds items by instance identity, not string equality, and forgets them', () => {
    const index = new ProviderIDIdentityIndex<string>(providerIDRegistry);
    index.add('m-1', 'aws:///us-east-1a/i-0123456789abcdef0');
    index.add('m-2', 'aws:///us-east-1b/i-0fedcba987654321f');
    index.add('m-3', '');
    index.add('m-4', 'aws:///us-east-1a/i-0123456789abcdef0');
    // Two Machines claim one instance: both are found (ambiguous).
    expect(index.lookup('aws:////i-0123456789abcdef0')).toEqual(['m-1', 'm-4']);
    index.remove('m-4', 'aws:///us-east-1a/i-0123456789abcdef0');
    // No zone on the Node's side: the same instance.
    expect(index.lookup('aws:////i-0123456789abcdef0')).toEqual(['m-1']);
    expect(index.lookup('aws:///us-east-1a/i-0123456789abcdef0')).toEqual(['m-1']);
    // Another zone: another instance.
    expect(index.lookup('aws:///us-east-1c/i-0123456789abcdef0')).toEqual([]);
    expect(index.lookup('')).toEqual([]);
    index.remove('m-1', 'aws:///us-east-1a/i-0123456789abcdef0');
    index.add('m-1', 'aws:///us-east-1a/i-0aaaaaaaaaaaaaaaa');
    expect(index.lookup('aws:////i-0123456789abcdef0')).toEqual([]);
    index.remove('m-2', 'aws:///us-east-1b/i-0fedcba987654321f');
    expect(index.lookup('aws:////i-0fedcba987654321f')).toEqual([]);
  });

  it('uses every cloud grammar by default', () => {
    const index = new ProviderIDIdentityIndex<string>();
    index.add('m', 'aws:///us-west-2b/i-0123456789abcdef0');
    expect(index.lookup('aws:////i-0123456789abcdef0')).toEqual(['m']);
  });
});

describe('index buckets', () => {
  it('hold one item bare, several in a Set, and shrink back', async () => {
    const { fileUnder, itemsUnder, unfileFrom } = await import('../src/multimap.js');
    const map = new Map();
    fileUnder(map, 'k', 'a');
    fileUnder(map, 'k', 'a');
    expect(map.get('k')).toBe('a');
    fileUnder(map, 'k', 'b');
    expect(itemsUnder(map, 'k')).toEqual(['a', 'b']);
    unfileFrom(map, 'k', 'a');
    expect(map.get('k')).toBe('b');
    unfileFrom(map, 'k', 'x');
    expect(itemsUnder(map, 'k')).toEqual(['b']);
    unfileFrom(map, 'k', 'b');
    expect(map.has('k')).toBe(false);
    expect(itemsUnder(map, 'k')).toEqual([]);
  });
});
