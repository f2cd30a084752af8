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
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();

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

  set(sessionId: string, actor: ActorContext, now: number): void {
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
    for (const id of ids) {
      this.entries.delete(id);
    }
  }

  evictUser(userId: string): void {
    for (const [id, entry] of this.entries) {
      if (entry.actor.userId === userId) {
        this.entries.delete(id);
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
