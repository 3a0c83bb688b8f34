import type { Clock } from '../../src/clock.js';

/**
 * A clock the test moves by hand. `wallOffsetMs` makes its wall clock disagree with real
 * time, to stand for a machine whose clock is off.
 */
export class FakeClock implements Clock {
  #monotonic = 1_000;
  #wall: number;

  constructor(wall: Date = new Date('2026-01-01T00:00:00Z')) {
    this.#wall = wall.getTime();
  }

  monotonicMs(): number {
    return this.#monotonic;
  }

  now(): Date {
    return new Date(this.#wall);
  }

  advance(ms: number): void {
    this.#monotonic += ms;
    this.#wall += ms;
  }

  /** Steps the wall clock only (an NTP step): monotonic time does not move. */
  stepWall(ms: number): void {
    this.#wall += ms;
  }
}
