export * from './domain-event';
export * from './domain-event-bus';
export * from './events.module';
export * from './postgres-event-bridge';
export * from './postgres-event-bridge.types';
export * from './replica-link';
export * from './stored-event';
