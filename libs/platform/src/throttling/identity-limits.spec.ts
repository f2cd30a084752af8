import { HumanRole } from '@app/domain';

import type { ActorContext } from '../auth/actor';

import { perMinuteLimits, rateLimitIdentity } from './identity-limits';

const actor = (role: HumanRole, via: ActorContext['via']): ActorContext => ({
  userId: role,
  username: role,
  role,
  sessionId: via === 'cli' ? null : 's1',
  mustChangePassword: false,
  department: null,
  via,
  expiresAt: Number.MAX_SAFE_INTEGER,
});

describe(rateLimitIdentity.name, () => {
  it('should tell anonymous clients, people and the System identity apart', () => {
    expect(rateLimitIdentity(undefined)).toBe('anonymous');
    expect(rateLimitIdentity(actor(HumanRole.Ceo, 'bearer'))).toBe('human');
    expect(rateLimitIdentity(actor(HumanRole.Observer, 'cookie'))).toBe('human');
    expect(rateLimitIdentity(actor(HumanRole.System, 'cli'))).toBe('system');
  });

  it('should give each identity type its own configured limit', () => {
    const limits = perMinuteLimits({
      anonymousPerMinute: 1,
      authenticatedPerMinute: 2,
      systemPerMinute: 3,
      servicePerMinute: 4,
      authEndpointsPerMinute: 10,
      mcpPerMinute: 5,
    });
    expect(limits).toEqual({ anonymous: 1, human: 2, system: 3, service: 4 });
  });
});
