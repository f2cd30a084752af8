/** Subsystems whose wiring the health endpoint reports and controllers can depend on. */
export const Subsystem = {
  Persistence: 'persistence',
  Memory: 'memory',
  MessageBus: 'message_bus',
} as const;
export type SubsystemName = (typeof Subsystem)[keyof typeof Subsystem] | (string & {});
