import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle, Throttle, type ThrottlerStorage } from '@nestjs/throttler';

import { RateLimitedError } from '@app/domain';

import { AuthRateLimited, McpRateLimited } from '../auth/require-permission.decorator';

import { AppThrottlerGuard } from './app-throttler.guard';
import { MemoryThrottlerStorage } from './memory-throttler.storage';

@SkipThrottle({ default: true, auth: true })
class ProbeController {
  probe(): void {}
}

class PartlySkippedController {
  @SkipThrottle({ default: true })
  @AuthRateLimited()
  partly(): void {}

  @SkipThrottle({ default: true })
  unmarked(): void {}
}

function contextFor(
  classRef: object,
  handler: object,
  req: Record<string, unknown>,
  res: object = { setHeader: jest.fn() },
): ExecutionContext {
  return {
    getHandler: () => handler,
    getClass: () => classRef,
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
}

describe('AppThrottlerGuard', () => {
  let storage: ThrottlerStorage & { increment: jest.Mock };
  let guard: AppThrottlerGuard;

  beforeEach(async () => {
    const memory = new MemoryThrottlerStorage();
    storage = Object.assign(memory, { increment: jest.fn(memory.increment.bind(memory)) });
    guard = new AppThrottlerGuard(
      {
        throttlers: [
          { name: 'default', ttl: 60_000, limit: 1 },
          { name: 'auth', ttl: 60_000, limit: 1 },
        ],
      },
      storage,
      new Reflector(),
    );
    await guard.onModuleInit();
  });

  it('should let a route that @SkipThrottle() exempts from every limit through without counting', async () => {
    const context = contextFor(ProbeController, ProbeController.prototype.probe, { ip: '127.0.0.1' });
    for (let i = 0; i < 3; i++) {
      await expect(guard.canActivate(context)).resolves.toBe(true);
    }
    expect(storage.increment).not.toHaveBeenCalled();
  });

  it('should still apply the limits a route does not skip', async () => {
    const context = contextFor(PartlySkippedController, PartlySkippedController.prototype.partly, {
      ip: '127.0.0.1',
    });
    await expect(guard.canActivate(context)).resolves.toBe(true);
    await expect(guard.canActivate(context)).rejects.toBeInstanceOf(RateLimitedError);
    expect(storage.increment).toHaveBeenCalled();
  });

  it('should count the authentication window only on routes marked @AuthRateLimited()', async () => {
    const context = contextFor(PartlySkippedController, PartlySkippedController.prototype.unmarked, {
      ip: '127.0.0.1',
    });
    for (let i = 0; i < 3; i++) {
      await expect(guard.canActivate(context)).resolves.toBe(true);
    }
    expect(storage.increment).not.toHaveBeenCalled();
  });
});

class AuthOnly {
  @AuthRateLimited()
  login(): void {}
}

describe('AppThrottlerGuard route plans', () => {
  class Limited {
    @Throttle({ default: { limit: 2, ttl: 1_000 } })
    strict(): void {}

    loose(): void {}
  }

  function guardWith(storage: ThrottlerStorage, reflector: Reflector, limit: number | (() => number)) {
    return new AppThrottlerGuard({ throttlers: [{ name: 'default', ttl: 60_000, limit }] }, storage, reflector);
  }

  it('should read the metadata of a route once, whatever the number of requests', async () => {
    const reflector = new Reflector();
    const read = jest.spyOn(reflector, 'getAllAndOverride');
    const guard = guardWith(new MemoryThrottlerStorage(), reflector, 100);
    await guard.onModuleInit();
    const context = contextFor(Limited, Limited.prototype.loose, { ip: '10.0.0.1' });
    await guard.canActivate(context);
    const perRoute = read.mock.calls.length;
    for (let i = 0; i < 5; i++) {
      await guard.canActivate(context);
    }
    expect(perRoute).toBeGreaterThan(0);
    expect(read).toHaveBeenCalledTimes(perRoute);
  });

  it('should apply the @Throttle() override of a route and the module limit elsewhere, and send the headers', async () => {
    const guard = guardWith(new MemoryThrottlerStorage(), new Reflector(), 3);
    await guard.onModuleInit();
    const headers: Record<string, unknown> = {};
    const res = { setHeader: (name: string, value: unknown) => (headers[name] = value) };
    const strict = contextFor(Limited, Limited.prototype.strict, { ip: '10.0.0.2' }, res);
    await guard.canActivate(strict);
    await guard.canActivate(strict);
    expect(headers).toMatchObject({ 'X-RateLimit-Limit': 2, 'X-RateLimit-Remaining': 0 });
    await expect(guard.canActivate(strict)).rejects.toBeInstanceOf(RateLimitedError);
    // The default window is shared by every route of a client: another client for the other route.
    const loose = contextFor(Limited, Limited.prototype.loose, { ip: '10.0.0.5' }, res);
    for (let i = 0; i < 3; i++) {
      await expect(guard.canActivate(loose)).resolves.toBe(true);
    }
    expect(headers).toMatchObject({ 'X-RateLimit-Limit': 3, 'X-RateLimit-Remaining': 0 });
    await expect(guard.canActivate(loose)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('should send the RateLimit-Policy and RateLimit headers on every counted response, the refusal included', async () => {
    const guard = new AppThrottlerGuard(
      {
        throttlers: [
          { name: 'default', ttl: 60_000, limit: 5 },
          { name: 'auth', ttl: 60_000, limit: 1 },
        ],
      },
      new MemoryThrottlerStorage(() => 0),
      new Reflector(),
    );
    await guard.onModuleInit();
    const headers: Record<string, unknown> = {};
    const res = { setHeader: (name: string, value: unknown) => (headers[name] = value) };
    const both = contextFor(AuthOnly, AuthOnly.prototype.login, { ip: '10.0.0.6' }, res);
    await guard.canActivate(both);
    expect(headers).toMatchObject({
      'RateLimit-Policy': '"default";q=5;w=60, "auth";q=1;w=60',
      RateLimit: '"default";r=4;t=60, "auth";r=0;t=60',
      'X-RateLimit-Remaining': 4,
      'X-RateLimit-Remaining-auth': 0,
    });
    await expect(guard.canActivate(both)).rejects.toBeInstanceOf(RateLimitedError);
    expect(headers).toMatchObject({
      'RateLimit-Policy': '"default";q=5;w=60, "auth";q=1;w=60',
      RateLimit: '"default";r=3;t=60, "auth";r=0;t=60',
      'Retry-After-auth': 60,
    });
  });

  it('should resolve a limit given as a function on every request', async () => {
    let current = 1;
    const guard = guardWith(new MemoryThrottlerStorage(), new Reflector(), () => current);
    await guard.onModuleInit();
    const context = contextFor(Limited, Limited.prototype.loose, { ip: '10.0.0.3' });
    await guard.canActivate(context);
    current = 3; // with the limit read once, the second request would be refused
    await expect(guard.canActivate(context)).resolves.toBe(true);
    await guard.canActivate(context);
    await expect(guard.canActivate(context)).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('should refuse a limit that is not a number, as the base guard does', async () => {
    const guard = guardWith(new MemoryThrottlerStorage(), new Reflector(), (() => 'many') as unknown as () => number);
    await guard.onModuleInit();
    const context = contextFor(Limited, Limited.prototype.loose, { ip: '10.0.0.4' });
    await expect(guard.canActivate(context)).rejects.toThrow('Invalid "limit" for the "default" throttler');
  });

  it('should count the mcp window on @McpRateLimited() routes only, per user, besides the general window', async () => {
    class Mixed {
      @McpRateLimited()
      mcp(): void {}

      rest(): void {}
    }
    const guard = new AppThrottlerGuard(
      {
        throttlers: [
          { name: 'default', ttl: 60_000, limit: 10 },
          { name: 'mcp', ttl: 60_000, limit: 2 },
        ],
      },
      new MemoryThrottlerStorage(() => 0),
      new Reflector(),
    );
    await guard.onModuleInit();
    const headers: Record<string, unknown> = {};
    const res = { setHeader: (name: string, value: unknown) => (headers[name] = value) };
    const alice = { actor: { userId: 'alice' } };
    const mcp = contextFor(Mixed, Mixed.prototype.mcp, alice, res);
    await guard.canActivate(mcp);
    await guard.canActivate(mcp);
    // The REST route is not in the mcp window; another user has a window of their own.
    await expect(guard.canActivate(contextFor(Mixed, Mixed.prototype.rest, alice, res))).resolves.toBe(true);
    await expect(
      guard.canActivate(contextFor(Mixed, Mixed.prototype.mcp, { actor: { userId: 'bob' } }, res)),
    ).resolves.toBe(true);
    await expect(guard.canActivate(mcp)).rejects.toBeInstanceOf(RateLimitedError);
    expect(headers).toMatchObject({ 'RateLimit-Policy': '"default";q=10;w=60, "mcp";q=2;w=60', 'Retry-After-mcp': 60 });
  });
});
