import { describe, expect, it } from 'vitest';
import { DeadlineError, withinDeadline } from '../src/deadline.js';

describe('withinDeadline', () => {
  it('passes through work that settles in time, result or error', async () => {
    await expect(withinDeadline(Promise.resolve(7), 60_000, 'late')).resolves.toBe(7);
    await expect(withinDeadline(Promise.reject(new Error('pull: 404')), 60_000, 'late')).rejects.toThrow(
      'pull: 404',
    );
  });

  it('rejects with the message when the work hangs, and hands a late result to onLate', async () => {
    let finish: (value: string) => void = () => {};
    const hanging = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const late: string[] = [];
    const error = await withinDeadline(hanging, 10, 'k3s did not start in 10 ms', (v) => late.push(v)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DeadlineError);
    expect((error as Error).message).toBe('k3s did not start in 10 ms');
    finish('container-1');
    await hanging;
    await new Promise((r) => setImmediate(r));
    expect(late).toEqual(['container-1']);
  });
});
