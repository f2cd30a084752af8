import { Global, Module } from '@nestjs/common';

import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';

import { EventBus } from './domain-event';
import { DomainEventBus } from './domain-event-bus';
import { EventBusLifecycle } from './event-bus.lifecycle';
import { ReplicaLink } from './replica-link';

/** The domain event bus, injectable everywhere as `EventBus`, and the state of its link to the other replicas. */
@Global()
@Module({
  providers: [
    {
      provide: DomainEventBus,
      inject: [LOGGING_RUNTIME],
      useFactory: (logging: LoggingRuntime) => new DomainEventBus(logging.forName('communication')),
    },
    { provide: EventBus, useExisting: DomainEventBus },
    {
      provide: ReplicaLink,
      inject: [LOGGING_RUNTIME],
      useFactory: (logging: LoggingRuntime) => new ReplicaLink(logging.forName('communication')),
    },
    EventBusLifecycle,
  ],
  exports: [EventBus, ReplicaLink],
})
export class EventsModule {}
