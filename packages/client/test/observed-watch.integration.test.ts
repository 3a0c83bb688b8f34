import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { describe, expect, it } from 'vitest';
import { MalformedWatchError, malformedEvent } from '../src/malformed-watch.js';
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
  });
});
