/** A row whose place in a filter's order is known: its offset there and its key. */
export interface PagePosition {
  offset: number;
  key: unknown;
}

/** Known places of one filter's order, sorted by offset. */
interface Places {
  offsets: number[];
  keys: unknown[];
  at: number[];
}

/** Places kept per filter at most; beyond it, every second one goes (the rest still spread over the list). */
const PLACES_PER_FILTER = 1024;

/**
 * Where some rows of a list's filters stand in their order: the last row of each page read, by its
 * offset and its key. A deeper page of the same filter can then start from the nearest row before it
 * (the rows from its sort values on, from the index) instead of counting every row before it. The
 * owner forgets them all on every write to the table ({@link clear}); each is also used for at most
 * `maxAgeMs` after it was read, so a write never announced to this process shifts a page by at most
 * the rows that write moved ahead of it, and only for that long.
 */
export class PagePositions {
  private readonly byFilter = new Map<string, Places>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxFilters: number,
  ) {}

  clear(): void {
    this.byFilter.clear();
  }

  /** The known row nearest before `offset` (or at it) in `filter`'s order, if one is recent enough. */
  before(filter: string, offset: number): PagePosition | undefined {
    const places = this.byFilter.get(filter);
    if (!places) {
      return undefined;
    }
    const oldest = Date.now() - this.maxAgeMs;
    for (let i = lastAtOrBefore(places.offsets, offset); i >= 0; i--) {
      if ((places.at[i] ?? 0) >= oldest) {
        return { offset: places.offsets[i] ?? 0, key: places.keys[i] };
      }
    }
    return undefined;
  }

  /** Records that the row with `key` stands at `offset` in `filter`'s order now. */
  remember(filter: string, offset: number, key: unknown): void {
    let places = this.byFilter.get(filter);
    if (!places) {
      if (this.byFilter.size >= this.maxFilters) {
        this.byFilter.clear();
      }
      places = { offsets: [], keys: [], at: [] };
      this.byFilter.set(filter, places);
    }
    const now = Date.now();
    const i = lastAtOrBefore(places.offsets, offset);
    if (i >= 0 && places.offsets[i] === offset) {
      places.keys[i] = key;
      places.at[i] = now;
      return;
    }
    places.offsets.splice(i + 1, 0, offset);
    places.keys.splice(i + 1, 0, key);
    places.at.splice(i + 1, 0, now);
    if (places.offsets.length > PLACES_PER_FILTER) {
      const keep = (_: unknown, index: number): boolean => index % 2 === 0;
      places.offsets = places.offsets.filter(keep);
      places.keys = places.keys.filter(keep);
      places.at = places.at.filter(keep);
    }
  }
}

/** The index of the last offset at or before `offset` in the sorted `offsets`, or -1. */
function lastAtOrBefore(offsets: readonly number[], offset: number): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((offsets[mid] ?? 0) <= offset) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low - 1;
}
