import type { HumanRole } from '@app/domain';

/** Who a WebSocket connection belongs to, once its one-time ticket has been consumed. */
export interface WsPrincipal {
  userId: string;
  username: string;
  role: HumanRole;
  sessionId: string;
}

/**
 * Port between the WebSocket gateway and the accounts module: consumes one-time tickets (atomically,
 * across replicas) and re-checks that a connection's session is still valid.
 */
export abstract class WsAuthenticator {
  /** The principal for a valid, unexpired, unused ticket (which is consumed), else null. */
  abstract consumeTicket(ticket: string): Promise<WsPrincipal | null>;
  /** False once the session was revoked, expired, or its user deleted. */
  abstract isSessionActive(sessionId: string): Promise<boolean>;
}
