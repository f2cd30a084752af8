import type { ServerResponse } from 'node:http';

import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type Resolvable,
  type ThrottlerGenerateKeyFunction,
  type ThrottlerGetTrackerFunction,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';

import { RateLimitedError } from '@app/domain';

import type { RequestWithActor } from '../auth/actor';
import { AUTH_RATE_LIMITED, MCP_RATE_LIMITED } from '../auth/require-permission.decorator';

import { type WindowReport, writeRateLimitHeaders } from './rate-limit-headers';

/**
 * Metadata key prefixes that @SkipThrottle() and @Throttle() write (each followed by a limit's name);
 * the package does not export them.
 */
export const SKIP_METADATA = 'THROTTLER:SKIP';
const LIMIT_METADATA = 'THROTTLER:LIMIT';
const TTL_METADATA = 'THROTTLER:TTL';
const BLOCK_DURATION_METADATA = 'THROTTLER:BLOCK_DURATION';
const TRACKER_METADATA = 'THROTTLER:TRACKER';
const KEY_GENERATOR_METADATA = 'THROTTLER:KEY_GENERATOR';

/**
 * Windows that apply only to routes opting in with this metadata on the handler: the strict
 * authentication window counts login, setup and change-password (@AuthRateLimited()) and nothing
 * else; the `mcp` window counts the service's MCP endpoint (@McpRateLimited()).
 */
const OPT_IN_WINDOWS: Readonly<Record<string, string>> = { auth: AUTH_RATE_LIMITED, mcp: MCP_RATE_LIMITED };

type NamedThrottler = ThrottlerOptions & { name: string };

/** One limit as it applies to one route: decorator overrides merged over the module's options. */
interface RouteLimit {
  throttler: NamedThrottler;
  skipIf: ((context: ExecutionContext) => boolean) | undefined;
  limit: Resolvable<number>;
  ttl: Resolvable<number>;
  blockDuration: Resolvable<number> | undefined;
  getTracker: ThrottlerGetTrackerFunction;
  generateKey: ThrottlerGenerateKeyFunction;
}

/**
 * Rate limits per authenticated user, or per client address when anonymous (runs after the
 * AuthGuard). The global window is shared by all routes of a client; the strict authentication
 * limit counts per route. Every counted response, a refusal included, carries the rate-limit
 * headers (see writeRateLimitHeaders); a refusal adds Retry-After.
 *
 * The base guard reads six metadata keys per limit on every request. Route metadata is fixed once
 * the application is built, so this guard reads it once per route into a plan (the limits that
 * apply, with their overrides) and each request only resolves values and counts. A route that
 * @SkipThrottle() exempts from every limit (the health probes) has an empty plan.
 */
@Injectable()
export class AppThrottlerGuard extends ThrottlerGuard {
  private readonly plans = new WeakMap<object, WeakMap<object, readonly RouteLimit[]>>();
  /** No tracker is configured for the module: the default is this guard's own (getTracker). */
  private readonly defaultTracker: boolean;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
  ) {
    super(options, storage, reflector);
    this.defaultTracker = Array.isArray(options) || options.getTracker === undefined;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const reports: WindowReport[] = [];
    const { req, res } = this.getRequestResponse(context);
    for (const route of this.planFor(context)) {
      if (route.skipIf?.(context)) {
        continue;
      }
      const name = route.throttler.name;
      // Limits are numbers, or functions of the request that answer at once: awaiting only what is
      // still pending spares every request a few turns of the microtask queue.
      const pending = resolveLimit(context, route, req);
      const { limit, ttl, blockDuration, tracker } = pending instanceof Promise ? await pending : pending;
      const key = route.generateKey(context, tracker, name);
      const counted = await this.storageService.increment(key, ttl, limit, blockDuration, name);
      reports.push({
        name,
        limit,
        windowSeconds: Math.ceil(ttl / 1000),
        remaining: counted.isBlocked ? 0 : Math.max(0, limit - counted.totalHits),
        resetSeconds: counted.isBlocked ? counted.timeToBlockExpire : counted.timeToExpire,
      });
      if (counted.isBlocked) {
        // Every limited response carries the headers, the refusal included.
        writeRateLimitHeaders(res as unknown as ServerResponse, reports);
        this.setResponseHeader(res, `Retry-After${name === 'default' ? '' : `-${name}`}`, counted.timeToBlockExpire);
        await this.throwThrottlingException(context, { limit, ttl, key, tracker, ...counted });
      }
    }
    writeRateLimitHeaders(res as unknown as ServerResponse, reports);
    return true;
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    return Promise.resolve(trackerOf(req));
  }

  protected override generateKey(context: ExecutionContext, tracker: string, name: string): string {
    return name === 'auth' ? `${context.getClass().name}.${context.getHandler().name}:${tracker}` : tracker;
  }

  /** The rate-limit headers go straight onto the response (Express's res.header adds nothing for them). */
  protected override setResponseHeader(res: Record<string, unknown>, name: string, value: string | number): void {
    (res as unknown as ServerResponse).setHeader(name, value);
  }

  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const wait = detail.timeToBlockExpire > 0 ? detail.timeToBlockExpire : detail.timeToExpire;
    throw new RateLimitedError(`Rate limit exceeded: retry in ${Math.max(1, wait)} seconds`, Math.max(1, wait));
  }

  private planFor(context: ExecutionContext): readonly RouteLimit[] {
    const handler = context.getHandler();
    const classRef = context.getClass();
    let byClass = this.plans.get(handler);
    if (!byClass) {
      byClass = new WeakMap();
      this.plans.set(handler, byClass);
    }
    let plan = byClass.get(classRef);
    if (!plan) {
      plan = this.plan([handler, classRef]);
      byClass.set(classRef, plan);
    }
    return plan;
  }

  private plan(targets: Targets): readonly RouteLimit[] {
    const read = <T>(prefix: string, name: string): T | undefined =>
      this.reflector.getAllAndOverride<T | undefined>(prefix + name, targets);
    const common = this.commonOptions;
    return this.throttlers
      .map((options) => options as NamedThrottler)
      .filter((throttler) => read<boolean>(SKIP_METADATA, throttler.name) !== true && this.optedIn(throttler, targets))
      .map((throttler) => ({
        throttler,
        skipIf: throttler.skipIf ?? common.skipIf,
        limit: read<Resolvable<number>>(LIMIT_METADATA, throttler.name) ?? throttler.limit,
        ttl: read<Resolvable<number>>(TTL_METADATA, throttler.name) ?? throttler.ttl,
        blockDuration: read<Resolvable<number>>(BLOCK_DURATION_METADATA, throttler.name) ?? throttler.blockDuration,
        getTracker:
          read<ThrottlerGetTrackerFunction>(TRACKER_METADATA, throttler.name) ??
          throttler.getTracker ??
          // The base guard's default is this guard's getTracker, bound: its answer, without the promise.
          (this.defaultTracker ? trackerOf : (common.getTracker as ThrottlerGetTrackerFunction)),
        generateKey:
          read<ThrottlerGenerateKeyFunction>(KEY_GENERATOR_METADATA, throttler.name) ??
          throttler.generateKey ??
          (common.generateKey as ThrottlerGenerateKeyFunction),
      }));
  }

  /** A window listed in OPT_IN_WINDOWS applies only where the handler carries its metadata. */
  private optedIn(throttler: NamedThrottler, [handler]: Targets): boolean {
    const key = OPT_IN_WINDOWS[throttler.name];
    return (
      key === undefined || (handler !== undefined && this.reflector.get<boolean | undefined>(key, handler) === true)
    );
  }
}

/** What Reflector.getAllAndOverride reads from: the handler, then its class. */
type Targets = Parameters<Reflector['getAllAndOverride']>[1];

/** Who a request counts against: the authenticated user, else the client address. */
function trackerOf(req: Record<string, unknown>): string {
  const request = req as unknown as RequestWithActor;
  return request.actor ? `user:${request.actor.userId}` : `ip:${String(request.ip)}`;
}

interface ResolvedLimit {
  limit: number;
  ttl: number;
  blockDuration: number;
  tracker: string;
}

/** A route's limit for this request: at once when every option answers at once, else once they settle. */
function resolveLimit(
  context: ExecutionContext,
  route: RouteLimit,
  req: Record<string, unknown>,
): ResolvedLimit | Promise<ResolvedLimit> {
  const name = route.throttler.name;
  const limit = resolveNumber(context, route.limit, 'limit', name);
  const ttl = resolveNumber(context, route.ttl, 'ttl', name);
  const block =
    route.blockDuration === undefined ? ttl : resolveNumber(context, route.blockDuration, 'blockDuration', name);
  const tracker = route.getTracker(req, context);
  if (
    typeof limit === 'number' &&
    typeof ttl === 'number' &&
    typeof block === 'number' &&
    typeof tracker === 'string'
  ) {
    return { limit, ttl, blockDuration: block, tracker };
  }
  return Promise.all([limit, ttl, block, tracker]).then(([l, t, b, k]) => ({
    limit: l,
    ttl: t,
    blockDuration: b,
    tracker: k,
  }));
}

/** A limit option as the base guard accepts it: a number, a numeric string, or a function of the request. */
function resolveNumber(
  context: ExecutionContext,
  value: Resolvable<number>,
  option: string,
  throttler: string,
): number | Promise<number> {
  const resolved: unknown = typeof value === 'function' ? value(context) : value;
  if (typeof resolved === 'number' && !Number.isNaN(resolved)) {
    return resolved;
  }
  if (resolved instanceof Promise) {
    return resolved.then((settled: unknown) => toNumber(settled, option, throttler));
  }
  return toNumber(resolved, option, throttler);
}

function toNumber(resolved: unknown, option: string, throttler: string): number {
  const number = typeof resolved === 'string' && resolved.trim() !== '' ? Number(resolved) : resolved;
  if (typeof number !== 'number' || Number.isNaN(number)) {
    throw new Error(
      `Invalid "${option}" for the "${throttler}" throttler: expected a number, got ${JSON.stringify(resolved)}.`,
    );
  }
  return number;
}
