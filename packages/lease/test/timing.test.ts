import { KubeConfig } from '@kubernetes/client-node';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaseConfigError } from '../src/errors.js';
import { NodeLeaseObserver } from '../src/node-lease-observer.js';
import {
  defaultLeaseTiming,
  jitteredRetryMs,
  type LeaseTiming,
  leaseTimingProblems,
  maxLeaseDurationSeconds,
  minRetryPeriodMs,
  resolveLeaseTiming,
} from '../src/timing.js';

describe('lease timing', () => {
  it('has valid defaults sized for maintenance', () => {
    expect(leaseTimingProblems(defaultLeaseTiming)).toEqual([]);
    expect(resolveLeaseTiming()).toEqual(defaultLeaseTiming);
  });

  it('derives deadline and retry from a duration alone, down to one second', () => {
    expect(resolveLeaseTiming({ leaseDurationSeconds: 3 })).toEqual({
      leaseDurationSeconds: 3,
      renewDeadlineMs: 2000,
      retryPeriodMs: 500,
    });
    expect(() => resolveLeaseTiming({ leaseDurationSeconds: 1 })).not.toThrow();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: maxLeaseDurationSeconds }), (seconds) => {
        expect(leaseTimingProblems(resolveLeaseTiming({ leaseDurationSeconds: seconds }))).toEqual([]);
      }),
    );
  });

  it('requires duration > renew deadline', () => {
    expect(() =>
      resolveLeaseTiming({ leaseDurationSeconds: 2, renewDeadlineMs: 2000, retryPeriodMs: 100 }),
    ).toThrow(/must be greater than the renew deadline/);
  });

  it('requires renew deadline > 1.2 × retry period', () => {
    expect(
      leaseTimingProblems({ leaseDurationSeconds: 10, renewDeadlineMs: 1200, retryPeriodMs: 1000 }),
    ).toEqual([
      'the renew deadline (1200 ms) must be greater than 1.2 × the retry period (retryPeriodMs: 1000)',
    ]);
    expect(
      leaseTimingProblems({ leaseDurationSeconds: 10, renewDeadlineMs: 1201, retryPeriodMs: 1000 }),
    ).toEqual([]);
  });

  it('caps the duration at one hour and wants whole, positive seconds', () => {
    expect(leaseTimingProblems({ ...defaultLeaseTiming, leaseDurationSeconds: 3600 })).toEqual([]);
    expect(leaseTimingProblems({ ...defaultLeaseTiming, leaseDurationSeconds: 3601 })[0]).toMatch(
      /must not exceed 3600/,
    );
    expect(leaseTimingProblems({ ...defaultLeaseTiming, leaseDurationSeconds: 1.5 })[0]).toMatch(
      /whole number/,
    );
    expect(leaseTimingProblems({ ...defaultLeaseTiming, leaseDurationSeconds: 0 })[0]).toMatch(
      /whole number/,
    );
    expect(
      leaseTimingProblems({ leaseDurationSeconds: 60, renewDeadlineMs: 0, retryPeriodMs: -1 }),
    ).toHaveLength(2);
  });

  it('throws a LeaseConfigError naming every problem', () => {
    try {
      resolveLeaseTiming({ leaseDurationSeconds: 5000, renewDeadlineMs: Number.NaN });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LeaseConfigError);
      expect(error).toMatchObject({ code: 'invalid-config', path: 'timing.leaseDurationSeconds' });
      expect((error as Error).message).toMatch(/3600.*renewDeadlineMs/);
    }
  });

  // client-go only wants a positive retry period; 1 ms would renew a thousand times a second.
  it.each([1, 50, 99.9])(
    'refuses a retry period of %d ms: the holder would hammer the API server',
    (retry) => {
      const options = { leaseDurationSeconds: 60, renewDeadlineMs: 40_000, retryPeriodMs: retry };
      expect(leaseTimingProblems(options)).toEqual([
        `retryPeriodMs must be at least ${minRetryPeriodMs} ms (got ${retry}): the holder renews and contenders read once per retry period`,
      ]);
      expect(() => resolveLeaseTiming(options)).toThrow(
        expect.objectContaining({ code: 'invalid-config', path: 'timing.retryPeriodMs' }),
      );
      expect(() => new NodeLeaseObserver({ kubeConfig: new KubeConfig(), timing: options })).toThrow(
        LeaseConfigError,
      );
      expect(() => resolveLeaseTiming({ ...options, retryPeriodMs: minRetryPeriodMs })).not.toThrow();
    },
  );

  it('names the option at fault in path', () => {
    const path = (timing: Partial<LeaseTiming>) => {
      try {
        resolveLeaseTiming(timing);
      } catch (error) {
        return (error as LeaseConfigError).path;
      }
      return undefined;
    };
    expect(path({ leaseDurationSeconds: 0 })).toBe('timing.leaseDurationSeconds');
    expect(path({ renewDeadlineMs: -1 })).toBe('timing.renewDeadlineMs');
    expect(path({ retryPeriodMs: Number.POSITIVE_INFINITY })).toBe('timing.retryPeriodMs');
    expect(path({ leaseDurationSeconds: 10, renewDeadlineMs: 10_000 })).toBe('timing.renewDeadlineMs');
    expect(path({ renewDeadlineMs: 1200, retryPeriodMs: 1000 })).toBe('timing.retryPeriodMs');
  });
});

describe('retry jitter', () => {
  afterEach(() => vi.restoreAllMocks());

  // client-go's wait.Jitter(d, 1.2) is d + rand × 1.2 × d: a capi-kit contender waiting less
  // than that would win most races against client-go contenders on the same Lease.
  it.each([
    [0, 1000],
    [0.5, 1600],
    [0.999, 2198.8],
  ])('with rand %d waits %d ms for a 1 s retry period, as wait.Jitter(d, 1.2)', (rand, expected) => {
    vi.spyOn(Math, 'random').mockReturnValue(rand);
    expect(jitteredRetryMs(1000)).toBeCloseTo(expected, 6);
  });
});

describe('watch timeoutSeconds', () => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });

  it.each([0, 26, 1.5, Number.NaN])('refuses %s before any request', (timeoutSeconds) => {
    const observer = new NodeLeaseObserver({ kubeConfig });
    expect(() => observer.watch({ timeoutSeconds })).toThrow(
      expect.objectContaining({ code: 'invalid-config', path: 'timeoutSeconds' }),
    );
  });
});
