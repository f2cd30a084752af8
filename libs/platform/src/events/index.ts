export * from './domain-event';
export * from './domain-event-bus';
export * from './events.module';
export * from './postgres-event-bridge';
export * from './stored-event';
export * from './event-bus-resync';
