import { type ExecutionContext, Injectable, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';

import { RateLimitedError } from '@app/domain';

import type { RequestWithActor } from '../auth/actor';

/** The metadata key prefix @SkipThrottle() writes (followed by the limit's name); not exported by the package. */
export const SKIP_METADATA = 'THROTTLER:SKIP';

/**
 * Rate limits per authenticated user, or per client address when anonymous (runs after the
 * AuthGuard). The global window is shared by all routes of a client; the strict authentication
 * limit counts per route.
 */
@Injectable()
export class AppThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
  ) {
    // The base guard reads five metadata keys per limit on every request; route metadata is fixed
    // once the application is built, so each read is done once per route.
    super(options, storage, memoizeMetadataReads(reflector));
  }

  /**
   * A route that @SkipThrottle() exempts from every limit (the health probes) returns here, before
   * the base guard's per-limit work; the reads go through the memoized reflector.
   */
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    return Promise.resolve(
      this.throttlers.every(
        (throttler) =>
          this.reflector.getAllAndOverride<boolean | undefined>(SKIP_METADATA + throttler.name, targets) === true,
      ),
    );
  }

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

type Target = Type<unknown> | ((...args: never[]) => unknown);

/**
 * A view of `reflector` whose getAllAndOverride remembers its answers per (handler, class, key).
 * Only for reads of decorator metadata, which never changes after bootstrap.
 */
export function memoizeMetadataReads(reflector: Reflector): Reflector {
  const memo = new WeakMap<object, WeakMap<object, Map<unknown, unknown>>>();
  const read = reflector.getAllAndOverride.bind(reflector) as (key: unknown, targets: Target[]) => unknown;
  const view = Object.create(reflector) as Reflector & {
    getAllAndOverride: (key: unknown, targets: Target[]) => unknown;
  };
  view.getAllAndOverride = (key: unknown, targets: Target[]): unknown => {
    const [handler, classRef] = targets;
    if (targets.length !== 2 || !handler || !classRef) {
      return read(key, targets);
    }
    let byClass = memo.get(handler);
    if (!byClass) {
      byClass = new WeakMap();
      memo.set(handler, byClass);
    }
    let byKey = byClass.get(classRef);
    if (!byKey) {
      byKey = new Map();
      byClass.set(classRef, byKey);
    }
    if (byKey.has(key)) {
      return byKey.get(key);
    }
    const value = read(key, targets);
    byKey.set(key, value);
    return value;
  };
  return view;
}
