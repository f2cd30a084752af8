/**
 * Recent list totals per filter, so that paging through a large table does not count it again on
 * every page. A total is dropped on every committed write to the table ({@link invalidate}, called
 * by its repository, and on news of another replica's write) and in any case after `ttlMs`, which
 * bounds how long a total can trail a write that was never announced to this process.
 */
export class CountCache {
  private generation = 0;
  private readonly totals = new Map<string, { generation: number; total: number; at: number }>();

  constructor(
    private readonly ttlMs = 1000,
    private readonly maxEntries = 256,
  ) {}

  /** Forgets every total: call after each committed write to the table. */
  invalidate(): void {
    this.generation++;
    this.totals.clear();
  }

  /** The remembered total of a filter, if it is still current. */
  get(key: string): number | undefined {
    const entry = this.totals.get(key);
    if (entry === undefined || entry.generation !== this.generation || Date.now() - entry.at > this.ttlMs) {
      return undefined;
    }
    return entry.total;
  }

  /** A mark to pass to {@link set}: taken before the count is read. */
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
}
