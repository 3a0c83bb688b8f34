// The Node cache on a watch stream that is not watch events. client-node's ListWatch reads
// `.metadata` of whatever a stream line holds in an async handler; before, such a line was
// an unhandled rejection that ended the process (the CLI's exit 70, no word of the cause).
import { MalformedWatchError } from '@capi-kit/client';
import { noControlPlane, useControlPlane } from '@capi-kit/envtest/vitest';
import { describe, expect, it } from 'vitest';
import { type ResourceCache, startNodeCache } from '../src/informer.js';
import type { KubeObject } from '../src/objects.js';

const cp = useControlPlane();

describe.skipIf(noControlPlane())('the Node cache on a stream that is not watch events', () => {
  it('records a MalformedWatchError as its last error and keeps running', async () => {
    // A real API server answers `/apis?watch=true` with its APIGroupList: the same stream a
    // proxy or an old server sends for a watch it does not serve.
    const started = await startNodeCache<KubeObject>({
      kubeConfig: cp.kubeConfig,
      path: '/apis',
      list: async () => ({ items: [], metadata: { resourceVersion: '' } }),
      onChange: () => {},
    }).then(
      (cache) => ({ cache }),
      (error: unknown) => ({ error }),
    );
    // The stream's first line may come before the first sync is reported (then the start
    // fails with it) or after (then it is the cache's last error, and it restarts).
    let error: unknown;
    if ('error' in started) error = started.error;
    else {
      const cache: ResourceCache<KubeObject> = started.cache;
      try {
        await expect.poll(() => cache.lastError, { timeout: 20_000 }).toBeInstanceOf(MalformedWatchError);
        error = cache.lastError;
      } finally {
        await cache.stop();
      }
    }
    expect(error).toBeInstanceOf(MalformedWatchError);
    expect((error as Error).message).toBe(
      'the watch of /apis sent a line that is not a watch event (no "type"); it was ended, to list again',
    );
  });
});
