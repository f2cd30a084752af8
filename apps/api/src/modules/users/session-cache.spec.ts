import type { ActorContext } from '@app/platform';

import { SessionCache } from './session-cache';

const actor = (userId: string, expiresAt = Number.MAX_SAFE_INTEGER): ActorContext => ({
  userId,
  username: userId,
  role: 'ceo',
  sessionId: `s-${userId}`,
  mustChangePassword: false,
  department: null,
  via: 'bearer',
  expiresAt,
});

describe(SessionCache.name, () => {
  it('should return a cached actor within 30 seconds and forget it after', () => {
    const cache = new SessionCache();
    cache.set('s1', actor('u1'), 0);
    expect(cache.get('s1', 29_999)?.userId).toBe('u1');
    expect(cache.get('s1', 30_000)).toBeUndefined();
  });

  it('should never outlive the session expiry', () => {
    const cache = new SessionCache();
    cache.set('s1', actor('u1', 1_000), 0);
    expect(cache.get('s1', 1_000)).toBeUndefined();
  });

  it('should evict by session and by user', () => {
    const cache = new SessionCache();
    cache.set('a', actor('u1'), 0);
    cache.set('b', actor('u1'), 0);
    cache.set('c', actor('u2'), 0);
    cache.evictSessions(['a']);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.evictUser('u1');
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('c', 1)?.userId).toBe('u2');
  });

  it('should stay bounded', () => {
    const cache = new SessionCache();
    for (let i = 0; i < 10_050; i++) {
      cache.set(`s${i}`, actor(`u${i}`), 0);
    }
    expect(cache.size).toBe(10_000);
    expect(cache.get('s0', 1)).toBeUndefined();
    expect(cache.get('s10049', 1)).toBeDefined();
  });

  it('should not cache an answer read before an eviction', () => {
    const cache = new SessionCache();
    const ticket = cache.ticket();
    cache.evictSessions(['s1']); // the revocation lands while the database read runs
    cache.set('s1', actor('u1'), 0, ticket);
    expect(cache.get('s1', 1)).toBeUndefined();
    cache.set('s1', actor('u1'), 0, cache.ticket());
    expect(cache.get('s1', 1)?.userId).toBe('u1');
  });

  it('should empty and bypass the cache while suspended, and start empty when resumed', () => {
    const cache = new SessionCache();
    cache.set('a', actor('u1'), 0);
    cache.suspend();
    expect(cache.get('a', 1)).toBeUndefined();
    cache.set('b', actor('u1'), 0);
    expect(cache.size).toBe(0);
    cache.resume();
    cache.set('b', actor('u1'), 0);
    expect(cache.get('b', 1)?.userId).toBe('u1');
  });
});
