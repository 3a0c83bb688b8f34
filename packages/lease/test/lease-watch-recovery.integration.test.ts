import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ControlPlane, startControlPlane } from '@capi-kit/envtest';
import { noControlPlane } from '@capi-kit/envtest/vitest';
import { ApiException, CoordinationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LeaseChange, NodeLeaseObserver } from '../src/index.js';
import { fastTiming, leaseClient, nodeName } from './helpers/clients.js';
import { eventually } from './helpers/eventually.js';

/**
 * The watch's two recovery paths, each against a private control plane whose flags make the
 * server do what it otherwise does only after minutes: close watches (timeoutSeconds), and
 * answer a watch from a compacted resourceVersion with an ERROR event (410 Expired).
 */

/** Consumes an observer's watch in the background, keeping every change. */
function collect(observer: NodeLeaseObserver, timeoutSeconds: number) {
  const stop = new AbortController();
  const changes: LeaseChange[] = [];
  const done = (async () => {
    for await (const change of observer.watch({ signal: stop.signal, timeoutSeconds })) changes.push(change);
  })();
  return {
    changes,
    about: (node: string) => changes.filter((change) => change.node === node),
    stop: async () => {
      stop.abort();
      await done;
    },
  };
}

/** One request as the audit log records it (the fields read here). */
interface AuditEvent {
  readonly verb: string;
  readonly requestURI: string;
  readonly stage: string;
  readonly objectRef?: { readonly namespace?: string; readonly resource?: string };
}

describe.skipIf(noControlPlane('private-local'))(
  'watch() resumes a watch the server closed (private control plane with an audit log)',
  () => {
    let cp: ControlPlane;
    let dir: string;
    const auditLog = () => join(dir, 'audit.log');

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'capi-kit-lease-audit-'));
      // Metadata of every lease request, written once it completes (a watch: when it ends).
      writeFileSync(
        join(dir, 'policy.yaml'),
        [
          'apiVersion: audit.k8s.io/v1',
          'kind: Policy',
          'omitStages: [RequestReceived, ResponseStarted]',
          'rules:',
          '  - level: Metadata',
          '    resources: [{ group: coordination.k8s.io, resources: [leases] }]',
          '  - level: None',
          '',
        ].join('\n'),
      );
      cp = await startControlPlane({
        backend: 'local',
        log: () => {},
        apiServerFlags: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${auditLog()}`],
      });
    });

    afterAll(async () => {
      await cp?.stop();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    /** The completed list and watch requests on leases in `namespace`. */
    function leaseReads(namespace: string): { lists: AuditEvent[]; watches: AuditEvent[] } {
      const events = readFileSync(auditLog(), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as AuditEvent)
        .filter((event) => event.stage === 'ResponseComplete' && event.objectRef?.namespace === namespace);
      return {
        lists: events.filter((event) => event.verb === 'list'),
        watches: events.filter((event) => event.verb === 'watch'),
      };
    }

    it('from the last resourceVersion, without listing again: every change reported once, in order', async () => {
      const namespace = await cp.createNamespace('lease-resume');
      const nodes = [nodeName('steady'), nodeName('steady')];
      const alice = leaseClient(cp.kubeConfig, namespace, 'alice');
      const written = new Map<string, Array<string | undefined>>();
      for (const node of nodes) {
        const created = await alice.tryAcquire(node);
        expect(created).toMatchObject({ acquired: true, how: 'created' });
        written.set(node, [created.lease.resourceVersion]);
      }

      const observer = new NodeLeaseObserver({ kubeConfig: cp.kubeConfig, namespace, timing: fastTiming });
      // The server ends each watch request after 1 s, so the writes below span several watches.
      const watch = collect(observer, 1);
      expect(await eventually(() => nodes.every((node) => watch.about(node).length > 0))).toBe(true);

      // Renewals for at least four watch lifetimes, until the server has closed three watches.
      const startedMs = performance.now();
      const closedWatches = () => leaseReads(namespace).watches.length;
      await Promise.all(
        nodes.map(async (node) => {
          while (performance.now() - startedMs < 4_000 || closedWatches() < 3) {
            const renewed = await alice.renew(node);
            if (!renewed.renewed) throw new Error(`renewal of ${node} refused: ${renewed.because}`);
            written.get(node)!.push(renewed.lease.resourceVersion);
          }
        }),
      );
      const reported = (node: string) => watch.about(node).map((change) => change.inspection.resourceVersion);
      expect(
        await eventually(() => nodes.every((node) => reported(node).includes(written.get(node)!.at(-1)))),
      ).toBe(true);
      await watch.stop();

      // Resumed from the last version: nothing missed, nothing twice...
      for (const node of nodes) expect(reported(node)).toEqual(written.get(node));
      // ...and by watching again, not by listing again (a re-list would collapse changes).
      const { lists, watches } = leaseReads(namespace);
      expect(watches.length).toBeGreaterThanOrEqual(3);
      expect(lists).toHaveLength(1);
      for (const closed of watches) expect(closed.requestURI).toMatch(/[?&]resourceVersion=\d+/);
    });
  },
);

describe.skipIf(noControlPlane('private-local'))(
  'watch() lists again after 410 Expired (private control plane: no watch cache, compaction every second)',
  () => {
    let cp: ControlPlane;

    beforeAll(async () => {
      // Without the watch cache a watch is served by etcd itself, which answers a watch from a
      // compacted revision with an error the API server sends as an ERROR event (410 Expired);
      // compaction every second makes any revision older than a second or two compacted.
      cp = await startControlPlane({
        backend: 'local',
        log: () => {},
        apiServerFlags: ['--watch-cache=false', '--etcd-compaction-interval=1s'],
      });
    });

    afterAll(async () => {
      await cp?.stop();
    });

    it('reports changes again once the version it watched from has been compacted', async () => {
      const namespace = await cp.createNamespace('lease-gone');
      const churn = await cp.createNamespace('churn');
      const api = cp.kubeConfig.makeApiClient(CoordinationV1Api);
      const node = nodeName('quiet');
      const alice = leaseClient(cp.kubeConfig, namespace, 'alice');
      expect(await alice.tryAcquire(node)).toMatchObject({ acquired: true });

      const observer = new NodeLeaseObserver({ kubeConfig: cp.kubeConfig, namespace, timing: fastTiming });
      const watch = collect(observer, 1);
      expect(await eventually(() => watch.about(node).length > 0)).toBe(true);
      // The watched namespace stays quiet, so the version the watch resumes from (each second)
      // stays at most what the server's revision is now.
      const horizon = (await api.listNamespacedLease({ namespace: churn })).metadata!.resourceVersion!;

      // Writes elsewhere move etcd's revision on; poll until the horizon has been compacted.
      let churned = 0;
      const compacted = async () => {
        await api.createNamespacedLease({
          namespace: churn,
          body: { metadata: { name: `churn-${++churned}` } },
        });
        try {
          await api.listNamespacedLease({
            namespace,
            resourceVersion: horizon,
            resourceVersionMatch: 'Exact',
          });
          return false;
        } catch (error) {
          if (error instanceof ApiException && error.code === 410) return true;
          throw error;
        }
      };
      let gone = false;
      const deadline = performance.now() + 60_000;
      while (!gone && performance.now() < deadline) {
        gone = await compacted();
        if (!gone) await sleep(200);
      }
      expect(gone).toBe(true);
      // Not a timed check but a precondition: a watch opened before the compaction is closed by
      // the server within its 1 s timeout; after that every resume from the old version is
      // answered 410 Expired, and only a fresh list lets the watch report anything again.
      await sleep(5_000);
      const reportedBefore = watch.about(node).length;

      const renewed = await alice.renew(node);
      expect(renewed.renewed).toBe(true);
      const version = renewed.renewed ? renewed.lease.resourceVersion : undefined;
      expect(
        await eventually(
          () => watch.about(node).some((change) => change.inspection.resourceVersion === version),
          60_000,
        ),
      ).toBe(true);
      await watch.stop();
      expect(watch.about(node).slice(reportedBefore)).toEqual([
        expect.objectContaining({
          type: 'modified',
          inspection: expect.objectContaining({ holder: 'alice' }),
        }),
      ]);
    });
  },
);
