/** What a {@link CountCache} knows of a filter's total right now. */
export interface CountLookup {
  /** The total to answer with, or undefined when none may be used. */
  total: number | undefined;
  /**
   * True when `total` is past its time limit but still within the grace that follows it: answer it,
   * and start one refresh ({@link CountCache.refreshing} tells whether one already runs).
   */
  stale: boolean;
  /** A count of this filter already being read for the current generation, to wait for instead of counting again. */
  pending: Promise<number | undefined> | undefined;
}

/**
 * Recent list totals per filter, so that paging through a large table does not count it again on
 * every page. A total is dropped on every committed write to the table ({@link invalidate}, called
 * by its repository, and on news of another replica's write). A total that is only old is answered
 * fresh for `ttlMs`, then for up to `ttlMs` more while one background count replaces it; so a
 * total trails a write that was never announced to this process by at most twice `ttlMs` plus one
 * count's duration.
 *
 * Concurrent requests for a filter whose total is unknown share one count: the first registers it
 * ({@link track}) and the others wait for it ({@link CountLookup.pending}), so a burst of requests
 * after a write costs one count of a large table, not one each. Likewise identical page reads in
 * flight at once share one statement ({@link share}).
 */
export class CountCache {
  private generation = 0;
  private readonly totals = new Map<string, { generation: number; total: number; at: number }>();
  private readonly inFlight = new Map<string, { generation: number; total: Promise<number | undefined> }>();
  private readonly reads = new Map<string, { generation: number; result: Promise<unknown> }>();

  constructor(
    private readonly ttlMs = 1000,
    private readonly maxEntries = 256,
  ) {}

  /** Forgets every total and every count in flight: call after each committed write to the table. */
  invalidate(): void {
    this.generation++;
    this.totals.clear();
    this.inFlight.clear();
    this.reads.clear();
  }

  /** The remembered total of a filter, if it is still fresh. */
  get(key: string): number | undefined {
    const found = this.lookup(key);
    return found.stale ? undefined : found.total;
  }

  /** What may be answered for a filter now: a fresh or stale total, or a count in flight to wait for. */
  lookup(key: string): CountLookup {
    const entry = this.totals.get(key);
    const flight = this.inFlight.get(key);
    const pending = flight !== undefined && flight.generation === this.generation ? flight.total : undefined;
    if (entry !== undefined && entry.generation === this.generation) {
      const age = Date.now() - entry.at;
      if (age <= this.ttlMs) {
        return { total: entry.total, stale: false, pending };
      }
      if (age <= 2 * this.ttlMs) {
        return { total: entry.total, stale: true, pending };
      }
    }
    return { total: undefined, stale: false, pending };
  }

  /** A mark to pass to {@link set} and {@link track}: taken before the count is read. */
  mark(): number {
    return this.generation;
  }

  /**
   * Remembers a total read after `mark` was taken, unless a write was invalidated in between: that
   * total may predate the write.
   */
  set(key: string, total: number, mark: number): void {
    if (mark !== this.generation) {
      return;
    }
    if (this.totals.size >= this.maxEntries) {
      this.totals.clear();
    }
    this.totals.set(key, { generation: mark, total, at: Date.now() });
  }

  /**
   * Registers a count being read after `mark`, for concurrent lookups of the same filter to wait for.
   * It is remembered once it settles with a number (nothing is kept when it answers undefined or
   * fails), and forgotten as in flight either way.
   */
  track(key: string, mark: number, total: Promise<number | undefined>): void {
    if (mark !== this.generation) {
      return;
    }
    fly(this.inFlight, key, { generation: mark, total }, total);
    total.then(
      (value) => {
        if (value !== undefined) {
          this.set(key, value, mark);
        }
      },
      () => undefined,
    );
  }

  /** Whether a count of this filter runs for the current generation (a refresh need not start another). */
  refreshing(key: string): boolean {
    return this.inFlight.get(key)?.generation === this.generation;
  }

  /**
   * Runs `read`, or joins the identical read already in flight for the current generation: a burst
   * of the same page costs one statement. Nothing is kept once the read settles, so an answer is at
   * most one read older than its request, and never older than a write this process committed (an
   * invalidation starts a new generation, which no earlier read serves). Every caller of a shared
   * read gets the same value: treat it as read-only.
   */
  share<T>(key: string, read: () => Promise<T>): Promise<T> {
    const joined = this.reads.get(key);
    if (joined !== undefined && joined.generation === this.generation) {
      return joined.result as Promise<T>;
    }
    const result = read();
    fly(this.reads, key, { generation: this.generation, result }, result);
    return result;
  }
}

/** Keeps `flight` under `key` while `settles` runs; a later flight of the key is left alone. */
function fly<F>(flights: Map<string, F>, key: string, flight: F, settles: Promise<unknown>): void {
  flights.set(key, flight);
  const land = (): void => {
    if (flights.get(key) === flight) {
      flights.delete(key);
    }
  };
  settles.then(land, land);
}
