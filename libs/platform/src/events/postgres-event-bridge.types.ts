import type { Logger } from 'pino';

import type { ReceivedEvent } from './domain-event';

export interface BridgeStatus {
  connected: boolean;
  detail: string;
}

export interface PostgresEventBridgeOptions {
  /** Connection string of the dedicated LISTEN client (never a pooled connection: LISTEN is per session). */
  databaseUrl: string;
  /** Runs one statement on the shared pool (the app's DataSource); publishes and pruning go there. */
  execute: (sql: string, params: unknown[]) => Promise<unknown>;
  /** Random per bus instance: a replica recognises, and skips, the rows it wrote itself. */
  originId: string;
  log: Logger;
  /** Hands an event from another replica to the local listeners. */
  deliver: (event: ReceivedEvent) => void;
  onStatus?: (status: BridgeStatus) => void;
  reconnectInitialMs?: number;
  reconnectMaxMs?: number;
  retentionMs?: number;
  pruneIntervalMs?: number;
  connectTimeoutMs?: number;
  applicationName?: string;
}
