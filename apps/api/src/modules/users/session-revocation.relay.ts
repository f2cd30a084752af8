import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, isEvent } from '@app/domain';
import { EventBus, LOGGING_RUNTIME, type LoggingRuntime, ReplicaLink } from '@app/platform';

import { SessionsService } from './sessions.service';

const EVICT_EVENT = 'auth.sessions.evicted';

/**
 * Revocations, logouts, password and role changes evict cached sessions on every replica: the local
 * eviction is announced on an internal bus channel (never sent to WebSocket clients), and remote
 * announcements evict here. While the link to the other replicas is down the cache is bypassed
 * (their evictions could be missed), and it starts empty when the link comes back.
 */
@Injectable()
export class SessionRevocationRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly unsubscribe: Array<() => void> = [];
  private readonly log: Logger;

  constructor(
    private readonly sessions: SessionsService,
    private readonly events: EventBus,
    private readonly link: ReplicaLink,
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
    const subscription = this.events.subscribe((event) => {
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
    let initial = true;
    const linked = this.link.subscribe((up) => {
      if (up) {
        this.sessions.cache.resume();
      } else {
        this.sessions.cache.suspend();
      }
      if (!initial) {
        this.log.info({ linked: up }, up ? 'security.session_cache.resumed' : 'security.session_cache.suspended');
      }
      initial = false;
    });
    this.unsubscribe.push(subscription, linked);
  }

  onApplicationShutdown(): void {
    this.unsubscribe.splice(0).forEach((unsubscribe) => unsubscribe());
  }
}
