import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { describe, expect, it } from 'vitest';
import { MalformedWatchError, malformedEvent, type WatchedObjects } from '../src/malformed-watch.js';
import { ObservedWatch } from '../src/observed-watch.js';

const cp = useControlPlane();

describe.skipIf(noControlPlane())('ObservedWatch on a stream that is not watch events', () => {
  it('ends the watch with a MalformedWatchError and passes nothing on (ListWatch would crash on it)', async () => {
    // A real API server answers `/apis?watch=true` with its APIGroupList, not with events:
    // the same stream a proxy or an old server sends for a watch it does not serve.
    const passedOn: unknown[] = [];
    const ended = new Promise<unknown>((resolve) => {
      const watch = new ObservedWatch(
        cp.kubeConfig,
        {
          onActivity: () => {},
          onEvent: () => {},
          onGone: () => {},
          onWatchStarted: () => {},
          isCurrent: () => true,
        },
        new AbortController().signal,
      );
      void watch.watch('/apis', {}, (phase, object) => passedOn.push([phase, object]), resolve);
    });
    const error = await ended;
    expect(passedOn).toEqual([]);
    expect(error).toBeInstanceOf(MalformedWatchError);
    expect((error as Error).message).toBe(
      'the watch of /apis sent a line that is not a watch event (no "type"); it was ended, to list again',
    );
  });
});

describe('malformedEvent', () => {
  it('takes the events ListWatch reads and names what is wrong with the rest', () => {
    const object = { metadata: { name: 'm', resourceVersion: '7' } };
    for (const phase of ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'])
      expect(malformedEvent(phase, object)).toBe(undefined);
    expect(malformedEvent('ERROR', { kind: 'Status', code: 410 })).toBe(undefined);
    expect(malformedEvent(undefined, undefined)).toBe('a line that is not a watch event (no "type")');
    expect(malformedEvent('ADDED', undefined)).toBe('an event of type ADDED without an object');
    expect(malformedEvent('ERROR', 'gone')).toBe('an event of type ERROR without an object');
    expect(malformedEvent('MODIFIED', [object])).toBe('an event of type MODIFIED without an object');
    expect(malformedEvent('DELETED', { metadata: 'x' })).toBe(
      'an event of type DELETED whose object has no metadata',
    );
    expect(malformedEvent('BOOKMARK', {})).toBe('an event of type BOOKMARK whose object has no metadata');
    expect(malformedEvent('SYNC', object)).toBe('an event of unknown type "SYNC"');
    expect(malformedEvent('ADDED', { metadata: { resourceVersion: '7' } })).toBe(
      "an event of type ADDED whose object's metadata.name is (undefined), not a non-empty string",
    );
    expect(malformedEvent('ADDED', { metadata: { name: '', resourceVersion: '7' } })).toBe(
      `an event of type ADDED whose object's metadata.name is "", not a non-empty string`,
    );
    expect(malformedEvent('MODIFIED', { metadata: { name: 'm', resourceVersion: 7 } })).toBe(
      "an event of type MODIFIED whose object's metadata.resourceVersion is (a number), not a non-empty string",
    );
    expect(malformedEvent('BOOKMARK', { metadata: { resourceVersion: '' } })).toBe(
      `an event of type BOOKMARK whose object's metadata.resourceVersion is "", not a non-empty string`,
    );
    expect(
      malformedEvent('DELETED', { metadata: { name: 'm', namespace: ['a'], resourceVersion: '7' } }),
    ).toBe("an event of type DELETED whose object's metadata.namespace is (an object), not a string");
  });

  it('given what is watched, takes only its objects', () => {
    const machines = (scope: WatchedObjects['scope']): WatchedObjects => ({
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Machine',
      scope,
    });
    const inNs = machines({ namespace: 'ns' });
    const machine = (metadata: Record<string, unknown>, header: Record<string, unknown> = {}) => ({
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      kind: 'Machine',
      ...header,
      metadata: { name: 'm', namespace: 'ns', resourceVersion: '7', ...metadata },
    });
    expect(malformedEvent('ADDED', machine({}), inNs)).toBe(undefined);
    // (an object that does not say its kind or apiVersion is taken as the watched one)
    expect(malformedEvent('ADDED', { metadata: machine({}).metadata }, inNs)).toBe(undefined);
    expect(malformedEvent('ADDED', machine({ namespace: 'other' }), inNs)).toBe(
      `an event of type ADDED whose object's metadata.namespace is "other", not "ns", the namespace watched`,
    );
    expect(malformedEvent('DELETED', machine({ namespace: undefined }), inNs)).toBe(
      `an event of type DELETED whose object's metadata.namespace is (undefined), not "ns", the namespace watched`,
    );
    expect(malformedEvent('ADDED', machine({}, { kind: 'MachineSet' }), inNs)).toBe(
      `an event of type ADDED whose object's kind is "MachineSet", not "Machine"`,
    );
    expect(malformedEvent('MODIFIED', machine({}, { apiVersion: 'v1' }), inNs)).toBe(
      `an event of type MODIFIED whose object's apiVersion is "v1", not "cluster.x-k8s.io/v1alpha2"`,
    );
    const bookmark = {
      kind: 'Machine',
      apiVersion: 'cluster.x-k8s.io/v1alpha2',
      metadata: { resourceVersion: '9' },
    };
    expect(malformedEvent('BOOKMARK', bookmark, inNs)).toBe(undefined);
    expect(malformedEvent('BOOKMARK', { ...bookmark, kind: 'Lease' }, inNs)).toBe(
      `an event of type BOOKMARK whose object's kind is "Lease", not "Machine"`,
    );
    const all = machines('all-namespaces');
    expect(malformedEvent('ADDED', machine({ namespace: 'other' }), all)).toBe(undefined);
    expect(malformedEvent('ADDED', machine({ namespace: '' }), all)).toBe(
      `an event of type ADDED whose object's metadata.namespace is "", not a non-empty string (Machine is namespaced)`,
    );
    const nodes: WatchedObjects = { apiVersion: 'v1', kind: 'Node', scope: 'cluster-scoped' };
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', resourceVersion: '7' } };
    expect(malformedEvent('ADDED', node, nodes)).toBe(undefined);
    expect(malformedEvent('ADDED', { ...node, metadata: { ...node.metadata, namespace: 'ns' } }, nodes)).toBe(
      `an event of type ADDED whose object's metadata.namespace is "ns", not absent (Node is cluster-scoped)`,
    );
    expect(malformedEvent('ADDED', { ...node, kind: 'Pod' }, nodes)).toBe(
      `an event of type ADDED whose object's kind is "Pod", not "Node"`,
    );
    expect(malformedEvent('ERROR', { kind: 'Status', code: 410 }, nodes)).toBe(undefined);
  });
});
