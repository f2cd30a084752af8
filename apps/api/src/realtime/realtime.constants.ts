import { CLIENT_CHANNELS, HumanRole } from '@app/domain';

/** The gateway path (the HTTP global prefix does not apply to gateways, so it is spelled out). */
export const WS_PATH = '/api/v1/ws';

/** Channels a client may subscribe to (the catalogue's); anything else is ignored (internal.* included). */
export const KNOWN_CHANNELS: ReadonlySet<string> = new Set(CLIENT_CHANNELS);

/** Spend figures (the budget channel) are for the roles that manage money. */
export const BUDGET_ROLES: readonly HumanRole[] = [HumanRole.Ceo, HumanRole.Manager];

export const WsCloseCode = {
  GoingAway: 1001,
  InternalError: 1011,
  /** Missing, invalid, expired or reused ticket (or no authenticator wired). */
  Unauthorized: 4001,
  /** Role without read permission, or the session was revoked. */
  Forbidden: 4003,
} as const;

export const WS_LIMITS = {
  /** Inbound frames above this are answered with "Message too large". */
  maxMessageBytes: 4096,
  /** Frames above this are not even buffered: ws closes the socket (1009). */
  maxFrameBytes: 64 * 1024,
  maxFilterKeys: 10,
  maxFilterValueLength: 256,
  /** Messages a client may send before its ticket has been checked; later ones are dropped. */
  maxQueuedBeforeAuth: 16,
  /** A client this far behind is cut off rather than letting the server buffer without bound. */
  maxBufferedBytes: 4 * 1024 * 1024,
} as const;

export interface RealtimeOptions {
  /** Ping interval; a connection that has not answered the previous ping by then is terminated. */
  heartbeatIntervalMs: number;
  /** How often each connection's session is re-checked (revoked sessions are closed 4003). */
  sessionRevalidateMs: number;
  /** How long a ticket check may take before the connection is given up. */
  authTimeoutMs: number;
  /** How long shutdown waits for clients to acknowledge the 1001 close. */
  closeGraceMs: number;
}

export const REALTIME_OPTIONS = Symbol('REALTIME_OPTIONS');

export const DEFAULT_REALTIME_OPTIONS: RealtimeOptions = {
  heartbeatIntervalMs: 25_000,
  sessionRevalidateMs: 10 * 60 * 1000,
  authTimeoutMs: 10_000,
  closeGraceMs: 1000,
};
