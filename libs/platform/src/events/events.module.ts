import { Global, Module } from '@nestjs/common';

import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';

import { EventBus } from './domain-event';
import { DomainEventBus } from './domain-event-bus';
import { EventBusResync } from './event-bus-resync';
import { EventBusLifecycle } from './event-bus.lifecycle';

/** The domain event bus, injectable everywhere as `EventBus`. */
@Global()
@Module({
  providers: [
    {
      provide: DomainEventBus,
      inject: [LOGGING_RUNTIME],
      useFactory: (logging: LoggingRuntime) => new DomainEventBus(logging.forName('communication')),
    },
    { provide: EventBus, useExisting: DomainEventBus },
    EventBusLifecycle,
    EventBusResync,
  ],
  exports: [EventBus, EventBusResync],
})
export class EventsModule {}
