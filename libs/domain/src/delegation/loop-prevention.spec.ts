import { ErrorCode } from '../errors';
import {
  breakerOpenUntil,
  checkDelegationLoop,
  DEFAULT_LOOP_PREVENTION,
  type DelegationAttempt,
  delegationFingerprint,
  type DelegationHistoryEntry,
  type LoopCheck,
  loopHistorySince,
} from './loop-prevention';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const FP = delegationFingerprint('Write the parser', 'Parse the config file.');
const OTHER_FP = delegationFingerprint('Write the lexer', 'Tokenise the config file.');

const attempt = (overrides: Partial<DelegationAttempt> = {}): DelegationAttempt => ({
  delegatorId: 'id-lead',
  delegatorName: 'Lead',
  delegateeId: 'id-dev',
  delegateeName: 'Dev',
  chain: [],
  fingerprint: FP,
  ...overrides,
});

/** A delegation `secondsAgo` before NOW; `back` is Dev → Lead instead of Lead → Dev. */
const entry = (secondsAgo: number, options: { back?: boolean; fingerprint?: string } = {}): DelegationHistoryEntry => ({
  delegatorId: options.back ? 'id-dev' : 'id-lead',
  delegateeId: options.back ? 'id-lead' : 'id-dev',
  fingerprint: options.fingerprint ?? OTHER_FP,
  at: new Date(NOW.getTime() - secondsAgo * 1000),
});

/** `count` Lead → Dev delegations of distinct work, `spacing` seconds apart, the newest `newest` seconds ago. */
const burst = (count: number, spacing: number, newest = 0): DelegationHistoryEntry[] =>
  Array.from({ length: count }, (_, i) => ({
    ...entry(newest + i * spacing),
    fingerprint: delegationFingerprint(`task ${i}`, 'x'),
  }));

/** Alternating directions: A→B, B→A, ... `count` entries, `spacing` seconds apart, the newest `newest` seconds ago. */
const pingPong = (count: number, spacing: number, newest = 0): DelegationHistoryEntry[] =>
  Array.from({ length: count }, (_, i) => entry(newest + (count - 1 - i) * spacing, { back: i % 2 === 1 }));

describe('checkDelegationLoop', () => {
  const cases: Array<{
    name: string;
    attempt?: Partial<DelegationAttempt>;
    history?: DelegationHistoryEntry[];
    refusedBy: LoopCheck | null;
    code?: ErrorCode;
  }> = [
    { name: 'a first delegation', refusedBy: null },
    // ancestry
    {
      name: 'a delegatee already in the chain',
      attempt: { chain: ['Dev', 'Boss'] },
      refusedBy: 'ancestry',
      code: ErrorCode.DelegationAncestryLoop,
    },
    {
      name: 'a delegatee in the chain under another case',
      attempt: { chain: ['ceo', ' dev '] },
      refusedBy: 'ancestry',
      code: ErrorCode.DelegationAncestryLoop,
    },
    { name: 'a delegation to the delegator itself', attempt: { delegateeName: 'lead' }, refusedBy: 'ancestry' },
    { name: 'near miss: a chain of other agents', attempt: { chain: ['Ceo', 'Developer'] }, refusedBy: null },
    // ancestry comes before depth
    {
      name: 'a loop that is also too deep',
      attempt: { chain: ['A', 'B', 'C', 'D', 'Dev'] },
      refusedBy: 'ancestry',
    },
    // depth
    {
      name: 'a chain that would reach depth 6',
      attempt: { chain: ['A', 'B', 'C', 'D', 'E'] },
      refusedBy: 'depth',
      code: ErrorCode.DelegationDepthExceeded,
    },
    { name: 'near miss: a chain that reaches depth 5', attempt: { chain: ['A', 'B', 'C', 'D'] }, refusedBy: null },
    // dedup
    {
      name: 'the same work to the same delegatee 30 s ago',
      history: [entry(30, { fingerprint: FP })],
      refusedBy: 'dedup',
      code: ErrorCode.DelegationDuplicate,
    },
    { name: 'near miss: the same work 60 s ago', history: [entry(60, { fingerprint: FP })], refusedBy: null },
    { name: 'near miss: other work 1 s ago', history: [entry(1)], refusedBy: null },
    {
      name: 'near miss: the same work the other way',
      history: [entry(5, { fingerprint: FP, back: true })],
      refusedBy: null,
    },
    {
      name: 'near miss: the same work to another delegatee',
      history: [{ ...entry(5, { fingerprint: FP }), delegateeId: 'id-other' }],
      refusedBy: null,
    },
    // dedup comes before the rate limit
    {
      name: 'a duplicate within a full minute',
      history: [...burst(13, 1, 2), entry(1, { fingerprint: FP })],
      refusedBy: 'dedup',
    },
    // rate limit: 10 a minute plus a burst of 3
    {
      name: '13 delegations of the pair within the last minute',
      history: burst(13, 4),
      refusedBy: 'rate_limit',
      code: ErrorCode.DelegationRateLimited,
    },
    { name: 'near miss: 12 within the last minute', history: burst(12, 4), refusedBy: null },
    { name: 'near miss: 13, the oldest 61 s ago', history: burst(13, 5, 1), refusedBy: null },
    {
      name: 'the pair counted in both directions',
      history: [...burst(7, 2), ...Array.from({ length: 6 }, (_, i) => entry(20 + i, { back: true }))],
      refusedBy: 'rate_limit',
    },
    {
      name: 'near miss: 13 with another pair',
      history: burst(13, 2).map((e) => ({ ...e, delegateeId: 'id-other' })),
      refusedBy: null,
    },
    // circuit breaker: 3 bounces, 300 s cooldown
    {
      name: 'three bounces within the cooldown',
      history: pingPong(4, 70),
      refusedBy: 'circuit_breaker',
      code: ErrorCode.DelegationCircuitOpen,
    },
    { name: 'near miss: two bounces', history: pingPong(3, 70), refusedBy: null },
    { name: 'near miss: three bounces, the breaker closed 1 s ago', history: pingPong(4, 70, 301), refusedBy: null },
    { name: 'near miss: bounces a quiet cooldown apart', history: pingPong(4, 301), refusedBy: null },
    { name: 'near miss: many delegations one way only', history: burst(6, 30), refusedBy: null },
  ];

  it.each(cases)('should refuse at $refusedBy: $name', ({ attempt: overrides, history, refusedBy, code }) => {
    const verdict = checkDelegationLoop(attempt(overrides), history ?? [], DEFAULT_LOOP_PREVENTION, NOW);
    if (refusedBy === null) {
      expect(verdict).toEqual({ allowed: true, chain: [...(overrides?.chain ?? []), 'Lead'] });
    } else {
      expect(verdict).toMatchObject({ allowed: false, check: refusedBy, ...(code ? { code } : {}) });
    }
  });

  it('should name the chain in an ancestry refusal', () => {
    const verdict = checkDelegationLoop(attempt({ chain: ['Dev'] }), [], DEFAULT_LOOP_PREVENTION, NOW);
    expect(verdict).toMatchObject({
      message: 'Dev is already in the delegation chain (Dev → Lead): delegating to it would loop',
      retryAfterSeconds: null,
    });
  });

  it('should tell when a time-based refusal lifts', () => {
    const dedup = checkDelegationLoop(attempt(), [entry(45, { fingerprint: FP })], DEFAULT_LOOP_PREVENTION, NOW);
    expect(dedup).toMatchObject({ check: 'dedup', retryAfterSeconds: 15 });
    const rate = checkDelegationLoop(attempt(), burst(13, 4), DEFAULT_LOOP_PREVENTION, NOW);
    expect(rate).toMatchObject({ check: 'rate_limit', retryAfterSeconds: 12 });
    const breaker = checkDelegationLoop(attempt(), pingPong(4, 70, 100), DEFAULT_LOOP_PREVENTION, NOW);
    expect(breaker).toMatchObject({ check: 'circuit_breaker', retryAfterSeconds: 200 });
  });

  it('should apply configured limits', () => {
    const strict = { ...DEFAULT_LOOP_PREVENTION, maxDelegationDepth: 1, maxPerPairPerMinute: 1, burstAllowance: 0 };
    expect(checkDelegationLoop(attempt({ chain: ['Boss'] }), [], strict, NOW)).toMatchObject({ check: 'depth' });
    expect(checkDelegationLoop(attempt(), [entry(10)], strict, NOW)).toMatchObject({ check: 'rate_limit' });
    const lenient = { ...DEFAULT_LOOP_PREVENTION, bounceThreshold: 4 };
    expect(checkDelegationLoop(attempt(), pingPong(4, 70), lenient, NOW)).toMatchObject({ allowed: true });
  });

  it('should ignore entries stamped after now', () => {
    expect(checkDelegationLoop(attempt(), [entry(-5, { fingerprint: FP })], DEFAULT_LOOP_PREVENTION, NOW)).toEqual({
      allowed: true,
      chain: ['Lead'],
    });
  });
});

describe('breakerOpenUntil', () => {
  it('should open at the third bounce for the cooldown and forget the bounces once it closed', () => {
    const start = NOW.getTime();
    const at = (s: number, back: boolean) => ({ ...entry(0, { back }), at: new Date(start + s * 1000) });
    const tripped = [at(0, false), at(10, true), at(20, false), at(30, true)];
    expect(breakerOpenUntil(tripped, DEFAULT_LOOP_PREVENTION)).toBe(start + 330_000);
    // After the cooldown one more bounce starts a new count: the breaker stays closed.
    expect(breakerOpenUntil([...tripped, at(400, false)], DEFAULT_LOOP_PREVENTION)).toBeNull();
  });
});

describe('delegationFingerprint', () => {
  it('should match the same work under other spacing and case, and tell other work apart', () => {
    expect(delegationFingerprint(' Write  the PARSER ', 'Parse the config\nfile.')).toBe(FP);
    expect(delegationFingerprint('Write the parser', 'Parse the other file.')).not.toBe(FP);
    expect(delegationFingerprint('Write the parser\nParse', 'the config file.')).not.toBe(FP);
  });
});

describe('loopHistorySince', () => {
  it('should reach back as far as the longest window', () => {
    expect(loopHistorySince(NOW, DEFAULT_LOOP_PREVENTION).getTime()).toBe(NOW.getTime() - 1_200_000);
    const longDedup = { ...DEFAULT_LOOP_PREVENTION, dedupWindowSeconds: 3600 };
    expect(loopHistorySince(NOW, longDedup).getTime()).toBe(NOW.getTime() - 3_600_000);
  });
});
