import { type PagePosition, PagePositions } from './page-positions';

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
 *
 * It also keeps where the last row of each page read stands in its filter's order
 * ({@link positionBefore}), forgotten on the same writes and trusted for as long as a total is
 * answered (twice `ttlMs`), so that a deep page can start from a row before it instead of counting
 * every row before it.
 */
export class CountCache {
  private generation = 0;
  private readonly totals = new Map<string, { generation: number; total: number; at: number }>();
  private readonly inFlight = new Map<string, { generation: number; total: Promise<number | undefined> }>();
  private readonly reads = new Map<string, SharedRead>();
  private readonly positions: PagePositions;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly retainMs: number;

  constructor(options: CountCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 1000;
    this.maxEntries = options.maxEntries ?? 256;
    this.retainMs = options.retainMs ?? 0;
    this.positions = new PagePositions(2 * this.ttlMs, this.maxEntries);
  }

  /** Forgets every total and every count in flight: call after each committed write to the table. */
  invalidate(): void {
    this.generation++;
    this.totals.clear();
    this.inFlight.clear();
    this.reads.clear();
    this.positions.clear();
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

  /** The row read last at or before `offset` in the order `filter` names, if one was read since the last write. */
  positionBefore(filter: string, offset: number): PagePosition | undefined {
    return this.positions.before(filter, offset);
  }

  /** Remembers that the row with `key` stands at `offset` in `filter`'s order, unless a write came since `mark`. */
  rememberPosition(filter: string, mark: number, offset: number, key: unknown): void {
    if (mark === this.generation) {
      this.positions.remember(filter, offset, key);
    }
  }

  /** Whether a count of this filter runs for the current generation (a refresh need not start another). */
  refreshing(key: string): boolean {
    return this.inFlight.get(key)?.generation === this.generation;
  }

  /**
   * Runs `read`, or joins the identical read already in flight for the current generation: a burst
   * of the same page costs one statement. With `retainMs`, a read that succeeded also serves the
   * identical requests that come within that many milliseconds of its end (a dashboard's polling),
   * when its page is asked for again: while it was in flight, or within `retainMs` of the page's
   * previous read or answer. A page read once, as a client paging through a list reads each, is let
   * go as soon as it settles: its rows would otherwise outlive the young generation and be promoted,
   * to be collected in the old one. An answer is thus at most one read plus `retainMs` older than its
   * request, and never older than a write this process committed: an invalidation starts a new
   * generation, which no earlier read serves. Every caller of a shared read gets the same value:
   * treat it as read-only.
   */
  share<T>(key: string, read: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const found = this.reads.get(key);
    const earlier = found !== undefined && found.generation === this.generation ? found : undefined;
    if (
      earlier?.result !== undefined &&
      (earlier.settledAt === undefined || now - earlier.settledAt <= this.retainMs)
    ) {
      earlier.again = true;
      earlier.askedAt = now;
      return earlier.result as Promise<T>;
    }
    const result = read();
    const again = earlier?.askedAt !== undefined && now - earlier.askedAt <= this.retainMs;
    const flight: SharedRead = { generation: this.generation, result, again };
    if (this.reads.size >= RETAINED_READS) {
      this.dropSettledReads();
    }
    this.reads.set(key, flight);
    const forget = (): void => {
      if (this.reads.get(key) === flight) {
        this.reads.delete(key);
      }
    };
    const settle = (): void => {
      if (this.retainMs <= 0) {
        forget();
        return;
      }
      // Kept for `retainMs` from now when asked for again; else only the time of the read is.
      flight.settledAt = Date.now();
      flight.askedAt ??= flight.settledAt;
      if (!flight.again) {
        flight.result = undefined;
      }
    };
    // A failed read is never kept.
    result.then(settle, forget);
    return result;
  }

  /** Makes room among the kept reads: those that settled go (the ones in flight stay shared). */
  private dropSettledReads(): void {
    for (const [key, flight] of this.reads) {
      if (flight.settledAt !== undefined) {
        this.reads.delete(key);
      }
    }
  }
}

/**
 * A page read in flight, or (with `retainMs`) settled at `settledAt`: kept to serve identical
 * requests, or, without its `result`, only as the time its page was last asked for.
 */
interface SharedRead {
  generation: number;
  result: Promise<unknown> | undefined;
  settledAt?: number;
  /** When a request last asked for this page: joined or was served by this read, or else when it settled. */
  askedAt?: number;
  /** Whether the page was asked for more than once: within `retainMs` before this read, or by joining it. */
  again: boolean;
}

/**
 * How long a list that dashboards poll keeps a page read for identical requests: short enough that
 * nobody waits on it, long enough that a burst of the same page costs one read and one rendering.
 */
export const POLLED_PAGE_RETAIN_MS = 250;

/** Kept page reads at most (their rows stay in memory while kept). */
const RETAINED_READS = 32;

export interface CountCacheOptions {
  /** How long a total is answered fresh (and then as much again while one refresh runs). */
  ttlMs?: number;
  /** Totals kept at most: beyond it, all are forgotten. */
  maxEntries?: number;
  /** How long a settled page read keeps serving identical requests ({@link CountCache.share}); 0: none. */
  retainMs?: number;
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
