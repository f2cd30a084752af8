export * from './channels';
export * from './event-catalogue';
export * from './event-payloads';
