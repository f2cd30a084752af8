import type { ActorContext } from './actor';

export interface PresentedToken {
  token: string;
  via: 'bearer' | 'cookie';
}

/**
 * Port implemented by the accounts module: turns a presented token into the caller, or throws
 * UnauthorizedError (bad signature, expired, revoked session, deleted user).
 */
export abstract class RequestAuthenticator {
  abstract authenticate(presented: PresentedToken): Promise<ActorContext>;
}

export const SESSION_COOKIE = 'session';
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
