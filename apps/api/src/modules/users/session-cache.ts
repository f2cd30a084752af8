import type { ActorContext } from '@app/platform';

interface Entry {
  actor: ActorContext;
  until: number;
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Bounded cache of validated sessions so authentication costs one JWT verify per request instead of
 * a database read. Entries live at most 30 s; revocation, logout, password and role changes evict
 * them at once on every replica (through the event bus), so revocation still takes effect immediately.
 *
 * Two rules keep an eviction from being lost. A lookup that read the database before an eviction
 * must not cache its (now stale) answer after it: `ticket()` is taken before the read and `set`
 * ignores answers whose ticket an eviction has since outdated. And while the link to the other
 * replicas is down their evictions may be missed, so the cache is emptied and bypassed until the
 * link is back (`suspend`/`resume`).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every eviction: a read that started before it must not cache its answer. */
  private generation = 0;
  private suspended = false;

  get(sessionId: string, now: number): ActorContext | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) {
      return undefined;
    }
    if (entry.until <= now) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.actor;
  }

  /** Taken before a database read of a session; hand it back to `set`. */
  ticket(): number {
    return this.generation;
  }

  set(sessionId: string, actor: ActorContext, now: number, ticket: number = this.generation): void {
    if (this.suspended || ticket !== this.generation) {
      return;
    }
    if (this.entries.size >= MAX_ENTRIES) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
      }
    }
    this.entries.set(sessionId, { actor, until: Math.min(now + TTL_MS, actor.expiresAt) });
  }

  evictSessions(ids: readonly string[]): void {
    this.generation += 1;
    for (const id of ids) {
      this.entries.delete(id);
    }
  }

  evictUser(userId: string): void {
    this.generation += 1;
    for (const [id, entry] of this.entries) {
      if (entry.actor.userId === userId) {
        this.entries.delete(id);
      }
    }
  }

  /** Empties the cache and stops filling it: evictions from other replicas may be missed meanwhile. */
  suspend(): void {
    this.suspended = true;
    this.clear();
  }

  /** Starts afresh once evictions arrive again (what was missed meanwhile is gone with the old entries). */
  resume(): void {
    this.clear();
    this.suspended = false;
  }

  get size(): number {
    return this.entries.size;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
