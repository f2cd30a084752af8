import { Injectable } from '@nestjs/common';

/**
 * Tells holders of event-fed state that the link to the other replicas came back after a loss: they
 * may have missed events meanwhile, so they re-read what those events keep current.
 */
@Injectable()
export class EventBusResync {
  private readonly listeners = new Set<() => void>();

  /** Registers a listener; the returned function unregisters it. */
  onResync(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  notify(): void {
    for (const listener of [...this.listeners]) {
      listener();
    }
  }
}
