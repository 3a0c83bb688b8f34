// A deadline for work that has no timeout of its own, such as a Docker image pull: the
// caller gets an error when the time is up instead of waiting for ever, and whatever the
// work yields late is handed to `onLate` (to stop a container nobody will use).

import { EnvtestError } from './errors.js';

/** Thrown by {@link withinDeadline} when the work did not finish in time. */
export class DeadlineError extends EnvtestError<'deadline-exceeded'> {
  override name = 'DeadlineError';
  constructor(message: string) {
    super('deadline-exceeded', message);
  }
}

/**
 * Resolves or rejects as `work` does, or rejects with a {@link DeadlineError} carrying
 * `message` after `ms` milliseconds. A result that arrives after the deadline goes to
 * `onLate`; a late failure is dropped.
 */
export function withinDeadline<T>(
  work: Promise<T>,
  ms: number,
  message: string,
  onLate: (late: T) => unknown = () => {},
): Promise<T> {
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = true;
      reject(new DeadlineError(message));
    }, ms);
  });
  work.then(
    (value) => {
      if (expired) void Promise.resolve(onLate(value)).catch(() => {});
    },
    () => {},
  );
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
