import type { Logger } from 'pino';

type LinkListener = (linked: boolean) => void;

/**
 * Whether events of the other replicas currently arrive (the bus's listener connection on
 * Postgres). While unlinked, events such as cache evictions may be missed, so a cache fed by them
 * must not be trusted; after a new link it must be refreshed. Without replicas (SQLite) the link is
 * always up.
 */
export class ReplicaLink {
  private linked = true;
  private readonly listeners = new Set<LinkListener>();

  constructor(private readonly log: Logger) {}

  get isLinked(): boolean {
    return this.linked;
  }

  /** Reports the link going down or coming up; listeners hear of changes only. */
  set(linked: boolean): void {
    if (linked === this.linked) {
      return;
    }
    this.linked = linked;
    for (const listener of [...this.listeners]) {
      try {
        listener(linked);
      } catch (error) {
        this.log.warn({ err: error, linked }, 'communication.link_listener.failed');
      }
    }
  }

  /** Calls the listener at once with the current state, then on every change; returns an unsubscribe. */
  subscribe(listener: LinkListener): () => void {
    this.listeners.add(listener);
    listener(this.linked);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Calls the listener each time the link comes back after a loss: events of the other replicas may
   * have been missed meanwhile, so state they keep current must be read again.
   */
  onRelinked(listener: () => void): () => void {
    let lost = !this.linked;
    return this.subscribe((linked) => {
      if (!linked) {
        lost = true;
      } else if (lost) {
        lost = false;
        listener();
      }
    });
  }
}
