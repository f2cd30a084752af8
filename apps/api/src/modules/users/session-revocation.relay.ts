import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, isEvent } from '@app/domain';
import { EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SessionsService } from './sessions.service';

const EVICT_EVENT = 'auth.sessions.evicted';

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
      const payload = { session_ids: ids, user_id: userId };
      this.events.publish({ channel: Channel.Auth, event_type: EVICT_EVENT, payload }).catch((error: unknown) => {
        this.log.error({ err: error }, 'security.session.eviction_relay_failed');
      });
    });
    this.unsubscribe = this.events.subscribe((event) => {
      if (event.origin !== 'remote' || !isEvent(event, Channel.Auth, EVICT_EVENT)) {
        return;
      }
      // Typed by the catalogue, yet read defensively: it was parsed from another replica's row.
      const payload = event.payload;
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
