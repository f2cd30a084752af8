import {
  mayDecide,
  parseChain,
  parseTiers,
  planTimeout,
  secondsRemaining,
  type TimeoutPolicyConfig,
  timeoutOutcome,
  urgencyLevel,
} from '.';

const NOW = new Date('2026-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

const CONFIG: TimeoutPolicyConfig = {
  policy: 'wait',
  denyTimeoutMinutes: 240,
  tiers: parseTiers({
    low: { timeout_minutes: 60, on_timeout: 'approve' },
    medium: { timeout_minutes: 240, on_timeout: 'deny', actions: ['db:mutate'] },
    high: { timeout_minutes: null },
    critical: { timeout_minutes: 10, on_timeout: 'escalate' },
  }),
  chain: parseChain([
    { role: 'manager', timeout_minutes: 60 },
    { role: 'ceo', timeout_minutes: 120 },
  ]),
};

describe('approval urgency', () => {
  it.each([
    [null, 'no_expiry'],
    [0, 'critical'],
    [3599, 'critical'],
    [3600, 'high'],
    [4 * 3600 - 1, 'high'],
    [4 * 3600, 'normal'],
  ] as const)('should rate %s seconds remaining as %s', (remaining, level) => {
    expect(urgencyLevel(remaining)).toBe(level);
  });

  it('should clamp the seconds remaining at zero once the deadline passed', () => {
    expect(secondsRemaining(at(-5), NOW)).toBe(0);
    expect(secondsRemaining(at(2), NOW)).toBe(120);
    expect(secondsRemaining(null, NOW)).toBeNull();
  });
});

describe(mayDecide.name, () => {
  it('should let the CEO and the Board Member decide anything and a Manager only their department', () => {
    const item = { department: 'engineering' };
    expect(mayDecide({ role: 'ceo', department: null }, item)).toBe(true);
    expect(mayDecide({ role: 'board_member', department: null }, item)).toBe(true);
    expect(mayDecide({ role: 'manager', department: 'engineering' }, item)).toBe(true);
    expect(mayDecide({ role: 'manager', department: 'sales' }, item)).toBe(false);
    expect(mayDecide({ role: 'manager', department: null }, { department: null })).toBe(false);
    expect(mayDecide({ role: 'observer', department: 'engineering' }, item)).toBe(false);
    expect(mayDecide({ role: 'pair_programmer', department: 'engineering' }, item)).toBe(false);
  });
});

describe(planTimeout.name, () => {
  const item = (riskLevel: 'low' | 'medium' | 'high' | 'critical', actionType = 'code:write') => ({
    riskLevel,
    actionType,
    ttlSeconds: null,
  });

  it('should let a TTL win over the policy and expire the item', () => {
    expect(planTimeout({ ...CONFIG, policy: 'tiered' }, { ...item('low'), ttlSeconds: 90 }, NOW)).toEqual({
      expiresAt: new Date(NOW.getTime() + 90_000),
      onTimeout: 'deny',
      step: -1,
      role: null,
    });
  });

  it('should wait forever under wait and deny after the timeout under deny', () => {
    expect(planTimeout(CONFIG, item('critical'), NOW).expiresAt).toBeNull();
    expect(planTimeout({ ...CONFIG, policy: 'deny' }, item('low'), NOW)).toMatchObject({
      expiresAt: at(240),
      onTimeout: 'deny',
    });
  });

  it('should follow the tier of the risk level, or the tier that lists the action type', () => {
    const tiered = { ...CONFIG, policy: 'tiered' as const };
    expect(planTimeout(tiered, item('low'), NOW)).toMatchObject({ expiresAt: at(60), onTimeout: 'approve' });
    expect(planTimeout(tiered, item('high'), NOW)).toMatchObject({ expiresAt: null, onTimeout: null });
    expect(planTimeout(tiered, item('low', 'db:mutate'), NOW)).toMatchObject({ expiresAt: at(240), onTimeout: 'deny' });
  });

  it('should start the escalation chain at its first step', () => {
    expect(planTimeout({ ...CONFIG, policy: 'escalation' }, item('low'), NOW)).toEqual({
      expiresAt: at(60),
      onTimeout: 'escalate',
      step: 0,
      role: 'manager',
    });
  });
});

describe(timeoutOutcome.name, () => {
  it('should move along the chain and expire once it is exhausted', () => {
    expect(timeoutOutcome(CONFIG, { onTimeout: 'escalate', step: 0 }, NOW)).toEqual({
      kind: 'escalate',
      plan: { expiresAt: at(120), onTimeout: 'escalate', step: 1, role: 'ceo' },
    });
    expect(timeoutOutcome(CONFIG, { onTimeout: 'escalate', step: 1 }, NOW)).toEqual({ kind: 'expire' });
    // A tier's escalation enters the chain at its first step.
    expect(timeoutOutcome(CONFIG, { onTimeout: 'escalate', step: -1 }, NOW)).toMatchObject({
      plan: { step: 0, role: 'manager' },
    });
  });

  it('should expire on deny, approve on approve, and do nothing without an action', () => {
    expect(timeoutOutcome(CONFIG, { onTimeout: 'deny', step: -1 }, NOW)).toEqual({ kind: 'expire' });
    expect(timeoutOutcome(CONFIG, { onTimeout: 'approve', step: -1 }, NOW)).toEqual({ kind: 'approve' });
    expect(timeoutOutcome(CONFIG, { onTimeout: null, step: -1 }, NOW)).toEqual({ kind: 'none' });
  });
});

describe('timeout settings shapes', () => {
  it.each([
    [[], 'object keyed by risk level'],
    [{ extreme: {} }, 'unknown risk level'],
    [{ low: { timeout_minutes: 0 } }, 'timeout_minutes'],
    [{ low: { on_timeout: 'ignore' } }, 'on_timeout'],
    [{ low: { actions: [1] } }, 'actions'],
  ])('should refuse tiers %j', (raw, message) => {
    expect(() => parseTiers(raw)).toThrow(message);
  });

  it.each([
    [{}, 'list'],
    [[{ role: '', timeout_minutes: 1 }], 'role'],
    [[{ role: 'ceo', timeout_minutes: -1 }], 'timeout_minutes'],
  ])('should refuse the chain %j', (raw, message) => {
    expect(() => parseChain(raw)).toThrow(message);
  });
});
