import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import { EventBus, LOGGING_RUNTIME, type LoggingRuntime, type ReceivedEvent } from '@app/platform';

import { SessionsService } from './sessions.service';

export const AUTH_INTERNAL_CHANNEL = 'internal.auth';
const EVICT_EVENT = 'auth.sessions.evicted';

type EvictPayload = { session_ids: string[]; user_id: string | null };

/**
 * Revocations, logouts, password and role changes evict cached sessions on every replica: the local
 * eviction is announced on an internal bus channel (never sent to WebSocket clients), and remote
 * announcements evict here.
 */
@Injectable()
export class SessionRevocationRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private unsubscribe: (() => void) | null = null;
  private readonly log: Logger;

  constructor(
    private readonly sessions: SessionsService,
    private readonly events: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security');
  }

  onApplicationBootstrap(): void {
    this.sessions.onRevocation((ids, userId) => {
      const payload: EvictPayload = { session_ids: ids, user_id: userId };
      this.events
        .publish({ channel: AUTH_INTERNAL_CHANNEL, event_type: EVICT_EVENT, payload })
        .catch((error: unknown) => {
          this.log.error({ err: error }, 'security.session.eviction_relay_failed');
        });
    });
    this.unsubscribe = this.events.subscribe((event: ReceivedEvent) => {
      if (event.origin !== 'remote' || event.channel !== AUTH_INTERNAL_CHANNEL || event.event_type !== EVICT_EVENT) {
        return;
      }
      const payload = event.payload as Partial<EvictPayload>;
      this.sessions.cache.evictSessions(Array.isArray(payload.session_ids) ? payload.session_ids : []);
      if (typeof payload.user_id === 'string') {
        this.sessions.cache.evictUser(payload.user_id);
      }
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }
}
