import { AppError, ErrorCode, QuotaExhaustedError, ValidationError } from '../errors';
import {
  applyDegradation,
  decideDegradation,
  DEGRADATION_STRATEGIES,
  degradationToJson,
  parseDegradationConfig,
  trackerQuotaView,
  type DegradationClock,
  type DegradationConfig,
  type DegradationStrategy,
  type QuotaView,
} from './degradation';
import { QuotaTracker } from './quota';

const NOW = Date.UTC(2025, 0, 1, 10, 30, 15);

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected an AppError');
}

/** Quotas as a table: providers absent from `exhausted` have capacity; resets in ms from NOW (null: unknown). */
function view(exhausted: Record<string, number | null>): QuotaView {
  return {
    hasCapacity: (provider) => !Object.hasOwn(exhausted, provider),
    nextResetMs: (provider) => {
      const inMs = Object.hasOwn(exhausted, provider) ? exhausted[provider] : null;
      return inMs === null ? null : NOW + inMs;
    },
  };
}

const config = (strategy: DegradationStrategy, overrides: Partial<DegradationConfig> = {}): DegradationConfig => ({
  strategy,
  fallbackProviders: [],
  queueMaxWaitSeconds: 300,
  ...overrides,
});

describe('parseDegradationConfig', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty object', {}],
    ['all keys null', { strategy: null, fallback_providers: null, queue_max_wait_seconds: null }],
  ])('should answer the defaults for %s', (_label, raw) => {
    expect(parseDegradationConfig(raw)).toEqual({ strategy: 'alert', fallbackProviders: [], queueMaxWaitSeconds: 300 });
  });

  it.each(DEGRADATION_STRATEGIES.map((strategy) => [strategy]))('should accept the %s strategy', (strategy) => {
    expect(parseDegradationConfig({ strategy }).strategy).toBe(strategy);
  });

  it.each([1, 300, 3600])('should accept a queue wait of %d s', (seconds) => {
    expect(parseDegradationConfig({ queue_max_wait_seconds: seconds }).queueMaxWaitSeconds).toBe(seconds);
  });

  it('should trim provider names and drop repeats, keeping the order', () => {
    expect(
      parseDegradationConfig({ strategy: 'fallback', fallback_providers: [' azure ', 'anthropic', 'azure'] })
        .fallbackProviders,
    ).toEqual(['azure', 'anthropic']);
  });

  it.each<[string, unknown, string]>([
    ['a string', 'alert', 'degradation config: must be a JSON object'],
    ['an array', [], 'degradation config: must be a JSON object'],
    ['an unknown key', { retries: 3 }, 'degradation config: unknown field retries'],
    ['an unknown strategy', { strategy: 'retry' }, 'strategy: must be one of alert, fallback, queue'],
    ['a strategy of the wrong case', { strategy: 'Queue' }, 'strategy: must be one of'],
    ['a numeric strategy', { strategy: 1 }, 'strategy: must be one of'],
    ['providers that are not an array', { fallback_providers: 'azure' }, 'fallback_providers: must be an array'],
    ['a blank provider', { fallback_providers: ['azure', ' '] }, 'fallback_providers[1]: must be a non-empty string'],
    ['a numeric provider', { fallback_providers: [7] }, 'fallback_providers[0]: must be a non-empty string'],
    ['an over-long provider', { fallback_providers: ['p'.repeat(129)] }, 'fallback_providers[0]:'],
    ['a zero wait', { queue_max_wait_seconds: 0 }, 'queue_max_wait_seconds: must be an integer between 1 and 3600'],
    ['a too long wait', { queue_max_wait_seconds: 3601 }, 'queue_max_wait_seconds: must be an integer between'],
    ['a fractional wait', { queue_max_wait_seconds: 1.5 }, 'queue_max_wait_seconds:'],
    ['a string wait', { queue_max_wait_seconds: '60' }, 'queue_max_wait_seconds:'],
    ['a negative wait', { queue_max_wait_seconds: -60 }, 'queue_max_wait_seconds:'],
  ])('should reject %s, naming the field', (_label, raw, message) => {
    const error = errorOf(() => parseDegradationConfig(raw));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe(ErrorCode.ConfigValidationError);
    expect(error.message).toContain(message);
  });

  it('should report every problem at once', () => {
    const error = errorOf(() =>
      parseDegradationConfig({ strategy: 'x', fallback_providers: [''], queue_max_wait_seconds: 0, extra: 1 }),
    );
    expect(error.message.split('; ')).toHaveLength(4);
  });
});

describe('degradationToJson', () => {
  it('should render the wire shape and round-trip through the parser', () => {
    const json = degradationToJson(config('fallback', { fallbackProviders: ['azure'], queueMaxWaitSeconds: 60 }));
    expect(json).toEqual({ strategy: 'fallback', fallback_providers: ['azure'], queue_max_wait_seconds: 60 });
    expect(degradationToJson(parseDegradationConfig(json))).toEqual(json);
  });
});

describe('decideDegradation', () => {
  it.each(DEGRADATION_STRATEGIES.map((strategy) => [strategy]))(
    'should proceed on a provider with capacity (%s)',
    (strategy) => {
      expect(decideDegradation('openai', config(strategy), view({ azure: 1000 }), NOW)).toEqual({
        action: 'proceed',
        provider: 'openai',
        fallbackFrom: null,
      });
    },
  );

  it.each<[string, number | null, number | null]>([
    ['a reset 30 s away', 30_000, 30],
    ['a reset 1.2 s away (rounded up)', 1200, 2],
    ['a reset under a second away', 10, 1],
    ['a reset already due', -5000, 1],
    ['no known reset', null, null],
  ])('should refuse with alert and %s', (_label, resetIn, retryAfter) => {
    const error = errorOf(() => decideDegradation('openai', config('alert'), view({ openai: resetIn }), NOW));
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(error.code).toBe(ErrorCode.QuotaExhausted);
    expect(error.retryAfterSec).toBe(retryAfter);
    expect(error.retryable).toBe(retryAfter !== null);
    expect(error.message).toContain("'openai'");
  });

  describe('fallback', () => {
    it.each<[string, string[], Record<string, number | null>, string]>([
      ['the first listed provider', ['azure', 'anthropic'], { openai: 1000 }, 'azure'],
      ['the first listed provider with capacity', ['azure', 'anthropic'], { openai: 1000, azure: 500 }, 'anthropic'],
      ['past the exhausted provider itself', ['openai', 'azure'], { openai: 1000 }, 'azure'],
    ])('should move to %s', (_label, fallbackProviders, exhausted, expected) => {
      expect(decideDegradation('openai', config('fallback', { fallbackProviders }), view(exhausted), NOW)).toEqual({
        action: 'proceed',
        provider: expected,
        fallbackFrom: 'openai',
      });
    });

    it.each<[string, string[], Record<string, number | null>, number | null, string]>([
      ['no fallback is configured', [], { openai: 9000 }, 9, 'no fallback provider is configured'],
      ['only itself is listed', ['openai'], { openai: 9000 }, 9, 'no fallback provider is configured'],
      [
        'every fallback is exhausted',
        ['azure', 'anthropic'],
        { openai: 90_000, azure: 4000, anthropic: null },
        4,
        'no fallback provider has capacity (tried azure, anthropic)',
      ],
      ['no reset is known anywhere', ['azure'], { openai: null, azure: null }, null, 'tried azure'],
    ])('should refuse when %s', (_label, fallbackProviders, exhausted, retryAfter, message) => {
      const error = errorOf(() =>
        decideDegradation('openai', config('fallback', { fallbackProviders }), view(exhausted), NOW),
      );
      expect(error).toBeInstanceOf(QuotaExhaustedError);
      expect(error.retryAfterSec).toBe(retryAfter);
      expect(error.message).toContain(message);
    });
  });

  describe('queue', () => {
    it.each<[string, number, number, number]>([
      ['a reset well within the limit', 20_000, 300, 20_000],
      ['a reset exactly at the limit', 60_000, 60, 60_000],
      ['a reset already due', -100, 60, 0],
    ])('should wait for %s', (_label, resetIn, maxWait, waitMs) => {
      expect(
        decideDegradation('openai', config('queue', { queueMaxWaitSeconds: maxWait }), view({ openai: resetIn }), NOW),
      ).toEqual({ action: 'wait', provider: 'openai', waitMs });
    });

    it.each<[string, number | null, number, number | null]>([
      ['the reset is beyond the limit', 60_001, 60, 61],
      ['the reset is an hour away', 3_600_000, 300, 3600],
      ['no reset is known', null, 300, null],
    ])('should refuse when %s', (_label, resetIn, maxWait, retryAfter) => {
      const error = errorOf(() =>
        decideDegradation('openai', config('queue', { queueMaxWaitSeconds: maxWait }), view({ openai: resetIn }), NOW),
      );
      expect(error).toBeInstanceOf(QuotaExhaustedError);
      expect(error.retryAfterSec).toBe(retryAfter);
    });

    it('should not consult fallback providers', () => {
      const decision = decideDegradation(
        'openai',
        config('queue', { fallbackProviders: ['azure'] }),
        view({ openai: 1000 }),
        NOW,
      );
      expect(decision.action).toBe('wait');
    });
  });
});

/** A clock whose sleep advances time by the slept amount (plus `drift`) and runs `onSleep`. */
function fakeClock(
  drift = 0,
  onSleep: (ms: number) => void = () => undefined,
): DegradationClock & { sleeps: number[] } {
  let now = NOW;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: (ms) => {
      sleeps.push(ms);
      now += ms + drift;
      onSleep(ms);
      return Promise.resolve();
    },
  };
}

describe('applyDegradation', () => {
  it.each<[string, DegradationConfig, Record<string, number | null>, string, string | null]>([
    ['a provider with capacity', config('queue'), {}, 'openai', null],
    ['a fallback', config('fallback', { fallbackProviders: ['azure'] }), { openai: 1000 }, 'azure', 'openai'],
  ])('should go ahead at once with %s', async (_label, cfg, exhausted, provider, fallbackFrom) => {
    const clock = fakeClock();
    await expect(applyDegradation('openai', cfg, view(exhausted), clock)).resolves.toEqual({
      provider,
      waitedMs: 0,
      fallbackFrom,
    });
    expect(clock.sleeps).toEqual([]);
  });

  it('should wait for the reset, then proceed, reporting the time waited', async () => {
    let exhausted = true;
    const quota: QuotaView = {
      hasCapacity: () => !exhausted,
      nextResetMs: () => (exhausted ? NOW + 45_000 : null),
    };
    const clock = fakeClock(7, () => {
      exhausted = false;
    });
    await expect(applyDegradation('openai', config('queue'), quota, clock)).resolves.toEqual({
      provider: 'openai',
      waitedMs: 45_007,
      fallbackFrom: null,
    });
    expect(clock.sleeps).toEqual([45_000]);
  });

  it('should fail rather than wait a second time', async () => {
    // The quota never frees up: each question reports a reset 10 s away.
    const clock = fakeClock();
    const quota: QuotaView = { hasCapacity: () => false, nextResetMs: () => clock.now() + 10_000 };
    const outcome = applyDegradation('openai', config('queue'), quota, clock);
    await expect(outcome).rejects.toBeInstanceOf(QuotaExhaustedError);
    await expect(outcome).rejects.toMatchObject({ code: ErrorCode.QuotaExhausted, retryAfterSec: 10 });
    await expect(outcome).rejects.toThrow('still out of quota after waiting 10000 ms');
    expect(clock.sleeps).toEqual([10_000]);
  });

  it.each<[string, DegradationConfig, Record<string, number | null>]>([
    ['alert', config('alert'), { openai: 1000 }],
    ['fallback without capacity', config('fallback', { fallbackProviders: ['azure'] }), { openai: 1000, azure: 1 }],
    ['queue beyond the limit', config('queue', { queueMaxWaitSeconds: 1 }), { openai: 5000 }],
  ])('should pass on the refusal of %s without sleeping', async (_label, cfg, exhausted) => {
    const clock = fakeClock();
    await expect(applyDegradation('openai', cfg, view(exhausted), clock)).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(clock.sleeps).toEqual([]);
  });

  it('should fail when a wait ends with the reset now too far away', async () => {
    const clock = fakeClock();
    let calls = 0;
    const quota: QuotaView = {
      hasCapacity: () => false,
      nextResetMs: () => (++calls === 1 ? NOW + 1000 : NOW + 3_600_000),
    };
    await expect(applyDegradation('openai', config('queue'), quota, clock)).rejects.toThrow(/queue limit/);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('should work against a real tracker through trackerQuotaView', async () => {
    const tracker = new QuotaTracker();
    tracker.configure('openai', { requestsPerMinute: 1 });
    tracker.record('openai', {}, NOW);
    const clock = fakeClock();
    const outcome = await applyDegradation('openai', config('queue'), trackerQuotaView(tracker, clock), clock);
    // NOW is 10:30:15, so the minute window resets 45 s later.
    expect(outcome).toEqual({ provider: 'openai', waitedMs: 45_000, fallbackFrom: null });
  });
});

describe('trackerQuotaView', () => {
  it('should read the clock on every question and pass the token estimate on', () => {
    const tracker = new QuotaTracker();
    tracker.configure('openai', { tokensPerMinute: 1000 });
    tracker.record('openai', { tokens: 900 }, NOW);
    let now = NOW;
    const small = trackerQuotaView(tracker, { now: () => now }, 100);
    const large = trackerQuotaView(tracker, { now: () => now }, 101);
    expect(small.hasCapacity('openai')).toBe(true);
    expect(large.hasCapacity('openai')).toBe(false);
    expect(large.nextResetMs('openai')).toBe(Date.UTC(2025, 0, 1, 10, 31));
    now = Date.UTC(2025, 0, 1, 10, 31);
    expect(large.hasCapacity('openai')).toBe(true);
    expect(large.nextResetMs('openai')).toBeNull();
  });
});
