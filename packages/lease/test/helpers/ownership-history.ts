/**
 * The history checker used by the contention tests: every contender records when it
 * started and stopped believing it held a lease, and the checker proves that no two
 * beliefs overlapped. Times are on one shared monotonic clock (performance.now in one
 * process).
 */

/** One period during which `holder` believed it held the lease. */
export interface Tenure {
  readonly holder: string;
  readonly startMs: number;
  /** Infinity while the belief has not ended. */
  readonly endMs: number;
}

export interface Overlap {
  readonly first: Tenure;
  readonly second: Tenure;
}

/** Every pair of tenures of different holders whose intervals intersect (touching ends do not). */
export function findOverlaps(tenures: readonly Tenure[]): Overlap[] {
  const sorted = [...tenures].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const overlaps: Overlap[] = [];
  const open: Tenure[] = [];
  for (const tenure of sorted) {
    // Drop tenures that ended before this one began; what remains intersects it.
    for (let i = open.length - 1; i >= 0; i--) if (open[i]!.endMs <= tenure.startMs) open.splice(i, 1);
    for (const other of open) {
      if (other.holder !== tenure.holder) overlaps.push({ first: other, second: tenure });
    }
    open.push(tenure);
  }
  return overlaps;
}

/** Records tenures as they happen. */
export class OwnershipHistory {
  readonly #closed: Tenure[] = [];
  readonly #open = new Map<string, number>();

  begin(holder: string, atMs: number): void {
    if (this.#open.has(holder)) throw new Error(`${holder} began a tenure twice`);
    this.#open.set(holder, atMs);
  }

  end(holder: string, atMs: number): void {
    const startMs = this.#open.get(holder);
    if (startMs === undefined) throw new Error(`${holder} ended a tenure it never began`);
    this.#open.delete(holder);
    this.#closed.push({ holder, startMs, endMs: atMs });
  }

  /** Closed tenures plus the open ones (ending at Infinity). */
  tenures(): Tenure[] {
    return [
      ...this.#closed,
      ...[...this.#open].map(([holder, startMs]) => ({ holder, startMs, endMs: Number.POSITIVE_INFINITY })),
    ];
  }

  overlaps(): Overlap[] {
    return findOverlaps(this.tenures());
  }
}
