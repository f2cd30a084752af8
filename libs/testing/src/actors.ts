import { HumanRole } from '@app/domain';
import type { ActorContext } from '@app/platform';

/** A signed-in caller for service specs: `alice`, a CEO on a bearer session expiring a day after 2026-01-01. */
export function actorContext(overrides: Partial<ActorContext> = {}): ActorContext {
  const username = overrides.username ?? 'alice';
  return {
    userId: `user-${username}`,
    username,
    role: HumanRole.Ceo,
    sessionId: 'session-1',
    mustChangePassword: false,
    department: null,
    via: 'bearer',
    expiresAt: Date.parse('2026-01-02T00:00:00.000Z'),
    ...overrides,
  };
}
