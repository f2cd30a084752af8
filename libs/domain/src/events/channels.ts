/**
 * The channels of the domain event bus, the one list of them. Clients subscribe to these names over
 * the WebSocket, so they are wire names and never change; channels for service-to-service
 * coordination start with `internal.` and never reach clients.
 */
export const Channel = {
  Tasks: 'tasks',
  Agents: 'agents',
  Budget: 'budget',
  Messages: 'messages',
  System: 'system',
  Approvals: 'approvals',
  Meetings: 'meetings',
  Artifacts: 'artifacts',
  Projects: 'projects',
  Company: 'company',
  Departments: 'departments',
  Providers: 'providers',
  /** Session evictions, relayed to the other replicas' session caches. */
  Auth: 'internal.auth',
  /** Runtime settings changes; subscribers rebuild what depends on them (no WebSocket channel). */
  Settings: 'internal.settings',
  /** A tool server was registered, changed, removed or re-listed: every replica reloads its servers. */
  Tools: 'internal.tools',
  /** A restore replaced the database: every replica re-reads what it keeps in memory. */
  Backup: 'internal.backup',
  /** Memory entries and org facts stored or removed: every replica keeps its vector index current. */
  Memory: 'internal.memory',
} as const;

/** A catalogued channel name. */
export type ChannelName = (typeof Channel)[keyof typeof Channel];

/** Prefix of the channels for service-to-service coordination: never delivered to WebSocket clients. */
export const INTERNAL_CHANNEL_PREFIX = 'internal.';

/** Whether a channel (catalogued or not) is internal. */
export function isInternalChannel(channel: string): boolean {
  return channel.startsWith(INTERNAL_CHANNEL_PREFIX);
}

const CHANNEL_NAMES: ReadonlySet<string> = new Set(Object.values(Channel));

/** Whether a name is one of the catalogued channels. */
export function isChannel(channel: string): channel is ChannelName {
  return CHANNEL_NAMES.has(channel);
}

/** The channels a WebSocket client may subscribe to (role rules aside): every non-internal one. */
export const CLIENT_CHANNELS: readonly ChannelName[] = Object.values(Channel).filter(
  (channel) => !isInternalChannel(channel),
);
