import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle, type ThrottlerStorage } from '@nestjs/throttler';

import { RateLimitedError } from '@app/domain';

import { AppThrottlerGuard, memoizeMetadataReads, SKIP_METADATA } from './app-throttler.guard';
import { MemoryThrottlerStorage } from './memory-throttler.storage';

@SkipThrottle({ default: true, auth: true })
class ProbeController {
  probe(): void {}
}

class PartlySkippedController {
  @SkipThrottle({ default: true })
  partly(): void {}
}

function contextFor(classRef: object, handler: object, req: Record<string, unknown>): ExecutionContext {
  return {
    getHandler: () => handler,
    getClass: () => classRef,
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({ header: jest.fn() }) }),
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
});

describe('memoizeMetadataReads', () => {
  it('should read each key once per route and keep routes of different classes apart', () => {
    const reflector = new Reflector();
    const read = jest.spyOn(reflector, 'getAllAndOverride');
    const view = memoizeMetadataReads(reflector);
    const handler = ProbeController.prototype.probe;
    const key = `${SKIP_METADATA}default`;
    expect(view.getAllAndOverride(key, [handler, ProbeController])).toBe(true);
    expect(view.getAllAndOverride(key, [handler, ProbeController])).toBe(true);
    expect(read).toHaveBeenCalledTimes(1);
    // The same function under another class is another route (the skip was on the class).
    expect(view.getAllAndOverride(key, [handler, PartlySkippedController])).toBeUndefined();
    const partly = PartlySkippedController.prototype.partly;
    expect(view.getAllAndOverride(key, [partly, PartlySkippedController])).toBe(true);
    expect(view.getAllAndOverride(`${SKIP_METADATA}auth`, [partly, PartlySkippedController])).toBeUndefined();
    expect(view.getAllAndOverride(`${SKIP_METADATA}auth`, [partly, PartlySkippedController])).toBeUndefined();
    expect(read).toHaveBeenCalledTimes(4);
  });
});
