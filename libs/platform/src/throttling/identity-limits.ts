import { HumanRole } from '@app/domain';

import type { ActorContext } from '../auth/actor';
import type { AppConfig } from '../config/app-config';

/**
 * Who a request counts as for the general limit: an anonymous client (per address), a person, the
 * System identity (the CLI's short-lived token) or a service token. Service tokens do not exist yet;
 * their limit is configured so that the token type only has to be classified here.
 */
export type RateLimitIdentity = 'anonymous' | 'human' | 'system' | 'service';

/** The identity type of a request's caller (undefined: not authenticated). */
export function rateLimitIdentity(actor: ActorContext | undefined): RateLimitIdentity {
  if (!actor) {
    return 'anonymous';
  }
  return actor.role === HumanRole.System || actor.via === 'cli' ? 'system' : 'human';
}

/** Requests a minute of the general window for each identity type. */
export function perMinuteLimits(limits: AppConfig['rateLimits']): Readonly<Record<RateLimitIdentity, number>> {
  return {
    anonymous: limits.anonymousPerMinute,
    human: limits.authenticatedPerMinute,
    system: limits.systemPerMinute,
    service: limits.servicePerMinute,
  };
}
