/**
 * The two clocks the lease client reads.
 *
 * `monotonicMs` measures elapsed time: expiry and renew deadlines are computed on it, so
 * wall-clock jumps (NTP steps, a VM resumed after suspend) cannot stretch or shrink them.
 * `now` is the wall clock, used only for the timestamps written into the lease (which are
 * informational for the local-clock rule) and for the opt-in remote-renewTime rule.
 *
 * Tests inject a clock they control to show how expiry is judged without waiting.
 */
export interface Clock {
  monotonicMs(): number;
  now(): Date;
}

export const systemClock: Clock = {
  monotonicMs: () => performance.now(),
  now: () => new Date(),
};
