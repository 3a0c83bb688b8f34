import type { V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  decideAcquire,
  decideRelease,
  decideRenew,
  maxLeaseTransitions,
  nextLeaseTransitions,
  type ReleaseDecision,
  type RenewDecision,
} from '../src/decision.js';
import { judgeExpiry, type LeaseState, ObservationLog } from '../src/expiry.js';
import { readLeaseRecord } from '../src/lease-record.js';
import { readDecideWrite } from '../src/read-decide-write.js';
import { FakeClock } from './helpers/fake-clock.js';

const fallback = 60;

function lease(spec: Record<string, unknown>): V1Lease {
  return { metadata: { name: 'n1' }, spec: spec as V1Lease['spec'] };
}

const heldByBob = (renewTime: string, extra: Record<string, unknown> = {}) =>
  readLeaseRecord(
    lease({
      holderIdentity: 'bob',
      leaseDurationSeconds: 10,
      acquireTime: renewTime,
      renewTime,
      leaseTransitions: 2,
      ...extra,
    }),
  );

describe('expiry judged on the local clock (client-go rule)', () => {
  it('expires a whole duration after this client last saw a change, not before', () => {
    const clock = new FakeClock();
    const log = new ObservationLog(clock);
    const record = heldByBob('2026-01-01T00:00:00.000000Z');
    let observed = log.observe('ns/n1', record);
    expect(judgeExpiry(record, observed, clock, fallback)).toMatchObject({
      state: 'held',
      expiresInMs: 10_000,
    });
    clock.advance(9_999);
    observed = log.observe('ns/n1', record);
    expect(judgeExpiry(record, observed, clock, fallback)).toMatchObject({ state: 'held', expiresInMs: 1 });
    clock.advance(1);
    expect(judgeExpiry(record, log.observe('ns/n1', record), clock, fallback)).toMatchObject({
      state: 'expired',
      expiresInMs: 0,
      decidedBy: 'local-observation',
    });
  });

  it('restarts the timer whenever the lease changes (a renewal)', () => {
    const clock = new FakeClock();
    const log = new ObservationLog(clock);
    log.observe('k', heldByBob('2026-01-01T00:00:00.000000Z'));
    clock.advance(9_000);
    const renewed = heldByBob('2026-01-01T00:00:09.000000Z');
    const observed = log.observe('k', renewed);
    clock.advance(9_000);
    expect(judgeExpiry(renewed, observed, clock, fallback).state).toBe('held');
  });

  it('ignores a remote clock that is far off in either direction', () => {
    for (const renewTime of ['1999-01-01T00:00:00.000000Z', '2099-01-01T00:00:00.000000Z']) {
      const clock = new FakeClock(new Date('2026-01-01T00:00:00Z'));
      const log = new ObservationLog(clock);
      const record = heldByBob(renewTime);
      const observed = log.observe('k', record);
      expect(judgeExpiry(record, observed, clock, fallback).state).toBe('held');
      clock.stepWall(-3_600_000); // the local wall clock jumping does not matter either
      clock.advance(10_000);
      expect(judgeExpiry(record, observed, clock, fallback).state).toBe('expired');
    }
  });

  it('uses the client’s own duration when the lease has a holder but no usable duration', () => {
    const clock = new FakeClock();
    const record = readLeaseRecord(lease({ holderIdentity: 'bob' }));
    const observed = new ObservationLog(clock).observe('k', record);
    clock.advance(59_000);
    expect(judgeExpiry(record, observed, clock, fallback).state).toBe('held');
    clock.advance(1_000);
    expect(judgeExpiry(record, observed, clock, fallback).state).toBe('expired');
  });

  it('never expires an administrator’s kubeadm hold, and an empty holder is free at once', () => {
    const clock = new FakeClock();
    const reserved = readLeaseRecord(lease({ holderIdentity: 'kubeadm-alice' }));
    const observed = new ObservationLog(clock).observe('k', reserved);
    clock.advance(10 * 365 * 86_400_000);
    expect(judgeExpiry(reserved, observed, clock, fallback).state).toBe('reserved');
    const free = readLeaseRecord(lease({ holderIdentity: '', leaseDurationSeconds: 1 }));
    expect(judgeExpiry(free, clock.monotonicMs(), clock, fallback).state).toBe('free');
    expect(judgeExpiry(readLeaseRecord(lease({})), clock.monotonicMs(), clock, fallback).state).toBe('free');
  });
});

describe('expiry judged by the remote renewTime (opt-in)', () => {
  const policy = { maxClockSkewMs: 3000 };

  it('lets a fresh observer take over a long-abandoned lease at once', () => {
    const clock = new FakeClock(new Date('2026-01-01T02:00:00Z'));
    const record = heldByBob('2026-01-01T00:00:00.000000Z', { leaseDurationSeconds: 3600 });
    const observed = new ObservationLog(clock).observe('k', record);
    const judgement = judgeExpiry(record, observed, clock, fallback, policy);
    expect(judgement.state).toBe('expired');
    expect(judgement.decidedBy).toBe('remote-renew-time');
    expect(judgement.expiresInMs).toBe(-3600_000 + 3000);
    // The local rule alone would wait the whole hour.
    expect(judgeExpiry(record, observed, clock, fallback).state).toBe('held');
  });

  it('adds the skew allowance to renewTime + duration', () => {
    const clock = new FakeClock(new Date('2026-01-01T00:00:12.999Z'));
    const record = heldByBob('2026-01-01T00:00:00.000000Z');
    const observed = new ObservationLog(clock).observe('k', record);
    expect(judgeExpiry(record, observed, clock, fallback, policy)).toMatchObject({
      state: 'held',
      expiresInMs: 1,
    });
    clock.advance(1);
    expect(judgeExpiry(record, observed, clock, fallback, policy).state).toBe('expired');
  });

  it('never extends a lease beyond the local rule when the writer’s clock runs ahead', () => {
    const clock = new FakeClock(new Date('2026-01-01T00:00:00Z'));
    const record = heldByBob('2026-06-01T00:00:00.000000Z');
    const observed = new ObservationLog(clock).observe('k', record);
    clock.advance(10_000);
    expect(judgeExpiry(record, observed, clock, fallback, policy)).toMatchObject({
      state: 'expired',
      decidedBy: 'local-observation',
    });
  });
});

describe('acquire decision table', () => {
  const judged = (state: 'free' | 'held' | 'expired' | 'reserved') => ({ state });

  it('creates an absent lease', () => {
    expect(decideAcquire(undefined, 'me', { state: 'absent' })).toEqual({ action: 'create' });
  });

  it('renews its own lease, even when it judges it expired', () => {
    const mine = readLeaseRecord(lease({ holderIdentity: 'me', leaseDurationSeconds: 10 }));
    expect(decideAcquire(mine, 'me', judged('held'))).toEqual({ action: 'renew' });
    expect(decideAcquire(mine, 'me', judged('expired'))).toEqual({ action: 'renew' });
  });

  it('takes a free or expired lease and refuses a held one', () => {
    const bob = heldByBob('2026-01-01T00:00:00.000000Z');
    expect(decideAcquire(readLeaseRecord(lease({ holderIdentity: '' })), 'me', judged('free'))).toEqual({
      action: 'take',
      from: 'free',
      previousHolder: '',
    });
    expect(decideAcquire(bob, 'me', judged('expired'))).toEqual({
      action: 'take',
      from: 'expired',
      previousHolder: 'bob',
    });
    expect(decideAcquire(bob, 'me', judged('held'))).toEqual({
      action: 'refuse',
      because: 'held',
      holder: 'bob',
    });
  });

  it('refuses reserved leases and foreign (Coordinated Leader Election) leases, even expired or its own', () => {
    const reserved = readLeaseRecord(lease({ holderIdentity: 'kubeadm' }));
    expect(decideAcquire(reserved, 'me', judged('reserved'))).toMatchObject({
      action: 'refuse',
      because: 'reserved',
    });
    const foreign = heldByBob('2026-01-01T00:00:00.000000Z', { strategy: 'OldestEmulationVersion' });
    expect(decideAcquire(foreign, 'me', judged('expired'))).toMatchObject({
      action: 'refuse',
      because: 'foreign',
    });
    const preferred = readLeaseRecord(lease({ holderIdentity: 'me', preferredHolder: 'x' }));
    expect(decideAcquire(preferred, 'me', judged('held'))).toMatchObject({
      action: 'refuse',
      because: 'foreign',
    });
  });
});

describe('leaseTransitions after a takeover', () => {
  it('adds one, and wraps to 0 after int32 max instead of writing a count the server refuses', () => {
    expect(nextLeaseTransitions(0)).toBe(1);
    expect(nextLeaseTransitions(41)).toBe(42);
    expect(nextLeaseTransitions(maxLeaseTransitions - 1)).toBe(maxLeaseTransitions);
    expect(maxLeaseTransitions).toBe(2147483647);
    expect(nextLeaseTransitions(maxLeaseTransitions)).toBe(0);
    // Values no API server stores (it refuses negative counts) restart the count too.
    expect(nextLeaseTransitions(-1)).toBe(0);
    expect(nextLeaseTransitions(-(2 ** 31))).toBe(0);
    expect(nextLeaseTransitions(1.5)).toBe(0);
  });
});

describe('renew and release decision tables', () => {
  type Seen = { state: LeaseState; foreign: boolean; heldByMe: boolean };
  const rows: ReadonlyArray<[string, Seen, RenewDecision, ReleaseDecision]> = [
    [
      'absent',
      { state: 'absent', foreign: false, heldByMe: false },
      { action: 'refuse', because: 'absent' },
      { action: 'refuse', because: 'absent' },
    ],
    ['mine', { state: 'held', foreign: false, heldByMe: true }, { action: 'renew' }, { action: 'release' }],
    [
      'mine, judged expired',
      { state: 'expired', foreign: false, heldByMe: true },
      { action: 'renew' },
      { action: 'release' },
    ],
    [
      "someone else's",
      { state: 'held', foreign: false, heldByMe: false },
      { action: 'refuse', because: 'lost' },
      { action: 'refuse', because: 'not-holder' },
    ],
    [
      'free',
      { state: 'free', foreign: false, heldByMe: false },
      { action: 'refuse', because: 'lost' },
      { action: 'refuse', because: 'not-holder' },
    ],
    [
      'foreign, even mine',
      { state: 'held', foreign: true, heldByMe: true },
      { action: 'refuse', because: 'foreign' },
      { action: 'refuse', because: 'not-holder' },
    ],
  ];
  it.each(rows)('%s', (_, seen, renew, release) => {
    expect(decideRenew(seen)).toEqual(renew);
    expect(decideRelease(seen)).toEqual(release);
  });
});

describe('readDecideWrite', () => {
  const conflict = () => new Error('too many conflicts');
  const leaseAt = (resourceVersion: string): V1Lease => ({ metadata: { name: 'n', resourceVersion } });

  it('re-reads and decides again after each 409, writing what the latest read decided', async () => {
    const versions = ['1', '2', '3'];
    const seen: Array<string | undefined> = [];
    const result = await readDecideWrite(
      async () => leaseAt(versions.shift()!),
      (current) => ({
        write: async () => {
          seen.push(current?.metadata?.resourceVersion);
          // The first two writes answer 409 Conflict.
          return seen.length < 3 ? undefined : `wrote over ${current?.metadata?.resourceVersion}`;
        },
      }),
      5,
      conflict,
    );
    expect(result).toBe('wrote over 3');
    expect(seen).toEqual(['1', '2', '3']);
  });

  it('returns an outcome that needs no write without writing', async () => {
    let writes = 0;
    const decide = (current: V1Lease | undefined) =>
      current === undefined
        ? { outcome: 'absent' }
        : {
            write: async () => {
              writes++;
              return 'written';
            },
          };
    expect(await readDecideWrite(async () => undefined, decide, 5, conflict)).toBe('absent');
    expect(writes).toBe(0);
  });

  it('gives up after the given number of conflicts in a row instead of spinning', async () => {
    let reads = 0;
    const forever = readDecideWrite(
      async () => {
        reads++;
        return leaseAt(String(reads));
      },
      () => ({ write: async () => undefined }),
      5,
      conflict,
    );
    await expect(forever).rejects.toThrow('too many conflicts');
    expect(reads).toBe(5);
  });
});

describe('a lease no API server checked (handed in by a library caller)', () => {
  it('a holder that is not a string still holds it; out-of-range numbers are absent', () => {
    // (a holderIdentity of 123 threw "identity?.startsWith is not a function")
    const record = readLeaseRecord(
      lease({ holderIdentity: 123, leaseDurationSeconds: 1e300, leaseTransitions: 1.5, strategy: 7 }),
    );
    expect(record).toMatchObject({
      holderIdentity: '123',
      leaseDurationSeconds: undefined,
      leaseTransitions: 0,
      strategy: undefined,
    });
    const clock = new FakeClock();
    const observed = new ObservationLog(clock).observe('ns/n1', record);
    expect(judgeExpiry(record, observed, clock, fallback).state).toBe('held');
  });
});
