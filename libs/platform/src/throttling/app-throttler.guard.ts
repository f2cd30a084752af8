import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';

import { RateLimitedError } from '@app/domain';

import type { RequestWithActor } from '../auth/actor';

/**
 * Rate limits per authenticated user, or per client address when anonymous (runs after the
 * AuthGuard). The global window is shared by all routes of a client; the strict authentication
 * limit counts per route.
 */
@Injectable()
export class AppThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as RequestWithActor;
    return Promise.resolve(request.actor ? `user:${request.actor.userId}` : `ip:${String(request.ip)}`);
  }

  protected override generateKey(context: ExecutionContext, tracker: string, name: string): string {
    return name === 'auth' ? `${context.getClass().name}.${context.getHandler().name}:${tracker}` : tracker;
  }

  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const wait = detail.timeToBlockExpire > 0 ? detail.timeToBlockExpire : detail.timeToExpire;
    throw new RateLimitedError(`Rate limit exceeded: retry in ${Math.max(1, wait)} seconds`, Math.max(1, wait));
  }
}
