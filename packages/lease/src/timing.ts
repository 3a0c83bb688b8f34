import { LeaseConfigError } from './errors.js';

/**
 * The three timing parameters of the lease algorithm, with the meaning client-go's
 * leader election gives them.
 *
 * - `leaseDurationSeconds` is written into the lease. Another client may take the lease
 *   over once it has seen no change to it for this long (see expiry.ts).
 * - `renewDeadlineMs` bounds how long a holder keeps believing it holds the lease
 *   without a successful renewal, counted from the start of the last renewal that
 *   succeeded. It must be shorter than the duration: the difference is the safety margin
 *   between "the holder gives up" and "someone else may take over".
 * - `retryPeriodMs` is the pause between attempts (acquire polling, renewals).
 */
export interface LeaseTiming {
  readonly leaseDurationSeconds: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** The documented upper bound for `leaseDurationSeconds` (the KEP's one hour). */
export const maxLeaseDurationSeconds = 3600;

/**
 * client-go's leader-election JitterFactor. Acquisition attempts wait as client-go's
 * `wait.Jitter(retryPeriod, 1.2)` does: the retry period plus up to 120 % of it, so that
 * capi-kit and client-go contenders on one Lease take turns fairly. client-go also requires
 * the renew deadline to exceed `JitterFactor × retryPeriod`, and so does `resolveLeaseTiming`.
 */
export const retryJitterFactor = 1.2;

/** `wait.Jitter(retryPeriod, retryJitterFactor)`: `d + random × 1.2 × d`, between 1× and 2.2×. */
export function jitteredRetryMs(retryPeriodMs: number): number {
  return retryPeriodMs + Math.random() * retryJitterFactor * retryPeriodMs;
}

/**
 * The pause before the next attempt to acquire a refused lease: `retryMs`, or until just
 * after the lease expires (by this client's judgement) when that comes sooner.
 */
export function nextAcquireAttemptMs(retryMs: number, expiresInMs: number | undefined): number {
  return expiresInMs !== undefined && expiresInMs >= 0 ? Math.min(retryMs, expiresInMs + 1) : retryMs;
}

/**
 * Defaults sized for maintenance rather than leader election: a minute of validity, a
 * renewal every ten seconds, and 20 s of margin between the holder giving up and the
 * lease becoming takeable.
 */
export const defaultLeaseTiming: LeaseTiming = {
  leaseDurationSeconds: 60,
  renewDeadlineMs: 40_000,
  retryPeriodMs: 10_000,
};

/**
 * The shortest retry period accepted. client-go only asks for a positive one, but every
 * holder renews once per retry period and every waiting contender reads as often: 1 ms would
 * be a thousand requests a second per lease. 100 ms still allows the shortest lease (1 s,
 * whose scaled retry period is 167 ms).
 */
export const minRetryPeriodMs = 100;

/** One thing wrong with a timing, and the option (as `timing.<name>`) to change. */
interface TimingProblem {
  readonly path: `timing.${keyof LeaseTiming}`;
  readonly message: string;
}

function timingProblems(timing: LeaseTiming): TimingProblem[] {
  const problems: TimingProblem[] = [];
  const { leaseDurationSeconds: duration, renewDeadlineMs: deadline, retryPeriodMs: retry } = timing;
  const problem = (option: keyof LeaseTiming, message: string) =>
    problems.push({ path: `timing.${option}`, message });
  if (!Number.isInteger(duration) || duration < 1) {
    problem(
      'leaseDurationSeconds',
      `leaseDurationSeconds must be a whole number of seconds >= 1 (got ${duration})`,
    );
  } else if (duration > maxLeaseDurationSeconds) {
    problem(
      'leaseDurationSeconds',
      `leaseDurationSeconds must not exceed ${maxLeaseDurationSeconds} (got ${duration})`,
    );
  }
  if (typeof deadline !== 'number' || !Number.isFinite(deadline) || deadline <= 0) {
    problem('renewDeadlineMs', `renewDeadlineMs must be > 0 (got ${deadline})`);
  }
  if (typeof retry !== 'number' || !Number.isFinite(retry) || retry <= 0) {
    problem('retryPeriodMs', `retryPeriodMs must be > 0 (got ${retry})`);
  } else if (retry < minRetryPeriodMs) {
    problem(
      'retryPeriodMs',
      `retryPeriodMs must be at least ${minRetryPeriodMs} ms (got ${retry}): the holder renews and contenders read once per retry period`,
    );
  }
  if (problems.length > 0) return problems;
  if (duration * 1000 <= deadline) {
    problem(
      'renewDeadlineMs',
      `the lease duration (${duration * 1000} ms) must be greater than the renew deadline (renewDeadlineMs: ${deadline})`,
    );
  }
  if (deadline <= retryJitterFactor * retry) {
    problem(
      'retryPeriodMs',
      `the renew deadline (${deadline} ms) must be greater than ${retryJitterFactor} × the retry period (retryPeriodMs: ${retry})`,
    );
  }
  return problems;
}

/** Everything wrong with `timing`, one sentence per problem (empty when valid). */
export function leaseTimingProblems(timing: LeaseTiming): string[] {
  return timingProblems(timing).map((problem) => problem.message);
}

/**
 * Completes and validates timing options. When only the duration is given, the renew
 * deadline and retry period scale with it in the default proportions (2/3 and 1/6 of the
 * duration), so `{ leaseDurationSeconds: 3 }` is a valid, short timing for tests.
 *
 * @throws LeaseConfigError listing every problem, `path` naming the option at fault
 *   (`timing.retryPeriodMs`, ...).
 */
export function resolveLeaseTiming(options: Partial<LeaseTiming> = {}): LeaseTiming {
  const leaseDurationSeconds = options.leaseDurationSeconds ?? defaultLeaseTiming.leaseDurationSeconds;
  const scale = leaseDurationSeconds / defaultLeaseTiming.leaseDurationSeconds;
  const timing: LeaseTiming = {
    leaseDurationSeconds,
    renewDeadlineMs: options.renewDeadlineMs ?? Math.round(defaultLeaseTiming.renewDeadlineMs * scale),
    retryPeriodMs: options.retryPeriodMs ?? Math.round(defaultLeaseTiming.retryPeriodMs * scale),
  };
  const problems = timingProblems(timing);
  // `path` names the option at fault (the first, when there are several).
  if (problems.length > 0) {
    throw new LeaseConfigError(
      `invalid lease timing: ${problems.map((problem) => problem.message).join('; ')}`,
      problems[0]!.path,
    );
  }
  return timing;
}
