/**
 * At most one log line per key and window: the first occurrence is logged at once; the ones that
 * follow inside the window are counted, and the next line for the key reports how many it stood for
 * (`repeated`). A client that retries once a second then costs one line a minute, not sixty.
 * The table is bounded: a key is forgotten once its window has passed, and when more than
 * `maxKeys` are live the oldest go first (their counts are lost, never the next line).
 */
export class LogThrottle {
  private readonly seen = new Map<string, { until: number; suppressed: number }>();

  constructor(
    private readonly windowMs = 60_000,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether to log this occurrence now, and how many earlier ones it stands for (0 the first time).
   * `null`: counted, stay quiet.
   */
  admit(key: string): { repeated: number } | null {
    const at = this.now();
    const entry = this.seen.get(key);
    if (entry && at < entry.until) {
      entry.suppressed += 1;
      return null;
    }
    const repeated = entry?.suppressed ?? 0;
    this.seen.delete(key);
    this.seen.set(key, { until: at + this.windowMs, suppressed: 0 });
    this.prune(at);
    return { repeated };
  }

  /** Entries sit in the order their windows started, so expired and surplus ones are at the front. */
  private prune(at: number): void {
    for (const [key, entry] of this.seen) {
      if (entry.until > at && this.seen.size <= this.maxKeys) {
        break;
      }
      this.seen.delete(key);
    }
  }
}
