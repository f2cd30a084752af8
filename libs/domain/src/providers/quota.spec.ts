import { ErrorCode, ValidationError } from '../errors';
import {
  parseQuotaLimits,
  QUOTA_WINDOW_MS,
  quotaLimitsToJson,
  QuotaTracker,
  windowStartMs,
  type QuotaLimits,
  type QuotaWindow,
} from './quota';

// 2025-01-01T10:30:15.000Z
const T0 = Date.UTC(2025, 0, 1, 10, 30, 15);
const NEXT_MINUTE = Date.UTC(2025, 0, 1, 10, 31, 0);
const NEXT_HOUR = Date.UTC(2025, 0, 1, 11, 0, 0);
const NEXT_DAY = Date.UTC(2025, 0, 2, 0, 0, 0);

const ALL_NULL = {
  requestsPerMinute: null,
  requestsPerHour: null,
  requestsPerDay: null,
  tokensPerMinute: null,
  tokensPerHour: null,
  tokensPerDay: null,
};

function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a ValidationError');
}

function tracker(limits: QuotaLimits, provider = 'openai'): QuotaTracker {
  const quota = new QuotaTracker();
  quota.configure(provider, limits);
  return quota;
}

describe('parseQuotaLimits', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty object', {}],
  ])('should answer unlimited for %s', (_label, raw) => {
    expect(parseQuotaLimits(raw)).toEqual(ALL_NULL);
  });

  it('should map every snake_case key, keeping 0 and null', () => {
    expect(
      parseQuotaLimits({
        requests_per_minute: 60,
        requests_per_hour: 0,
        requests_per_day: null,
        tokens_per_minute: 90_000,
        tokens_per_hour: 1_000_000,
        tokens_per_day: 10_000_000,
      }),
    ).toEqual({
      requestsPerMinute: 60,
      requestsPerHour: 0,
      requestsPerDay: null,
      tokensPerMinute: 90_000,
      tokensPerHour: 1_000_000,
      tokensPerDay: 10_000_000,
    });
  });

  const fields = [
    'requests_per_minute',
    'requests_per_hour',
    'requests_per_day',
    'tokens_per_minute',
    'tokens_per_hour',
    'tokens_per_day',
  ];
  const badValues: unknown[] = [-1, 1.5, '10', true, [], {}, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60];
  it.each(fields.flatMap((field) => badValues.map((value) => [field, value] as [string, unknown])))(
    'should reject %s = %p, naming the field',
    (field, value) => {
      const error = validationErrorOf(() => parseQuotaLimits({ [field]: value }));
      expect(error.code).toBe(ErrorCode.ConfigValidationError);
      expect(error.message).toBe(`${field}: must be a non-negative integer or null`);
    },
  );

  it.each<[string, unknown, string]>([
    ['a string', 'fast', 'quota limits: must be a JSON object'],
    ['an array', [1], 'quota limits: must be a JSON object'],
    ['a camelCase key', { requestsPerMinute: 5 }, 'quota limits: unknown field requestsPerMinute'],
    [
      'an unknown key',
      { rpm: 5, requests_per_minute: 5 },
      'quota limits: unknown field rpm (allowed: requests_per_minute',
    ],
  ])('should reject %s', (_label, raw, message) => {
    expect(validationErrorOf(() => parseQuotaLimits(raw)).message).toContain(message);
  });

  it('should report every problem at once', () => {
    const error = validationErrorOf(() => parseQuotaLimits({ x: 1, requests_per_day: -1, tokens_per_day: 'a' }));
    expect(error.message.split('; ')).toHaveLength(3);
  });
});

describe('quotaLimitsToJson', () => {
  it.each<[string, QuotaLimits]>([
    ['empty limits', {}],
    ['partial limits', { requestsPerMinute: 10, tokensPerDay: 0 }],
    ['full limits', { ...ALL_NULL, requestsPerHour: 5, tokensPerMinute: 7 }],
  ])('should render every key and round-trip %s', (_label, limits) => {
    const json = quotaLimitsToJson(limits);
    expect(Object.keys(json)).toHaveLength(6);
    expect(json.requests_per_minute).toBe(limits.requestsPerMinute ?? null);
    expect(json.tokens_per_day).toBe(limits.tokensPerDay ?? null);
    expect(quotaLimitsToJson(parseQuotaLimits(json))).toEqual(json);
  });
});

describe('windowStartMs', () => {
  it.each<[QuotaWindow, number, number]>([
    ['minute', T0, Date.UTC(2025, 0, 1, 10, 30, 0)],
    ['hour', T0, Date.UTC(2025, 0, 1, 10, 0, 0)],
    ['day', T0, Date.UTC(2025, 0, 1)],
    ['minute', NEXT_MINUTE, NEXT_MINUTE],
    ['minute', NEXT_MINUTE - 1, NEXT_MINUTE - QUOTA_WINDOW_MS.minute],
    ['day', NEXT_DAY - 1, Date.UTC(2025, 0, 1)],
  ])('should align the %s window of %d to %d', (window, now, start) => {
    expect(windowStartMs(window, now)).toBe(start);
  });
});

describe('QuotaTracker', () => {
  describe('a provider that is not configured', () => {
    const quota = new QuotaTracker();
    quota.record('ghost', { requests: 100, tokens: 1e6 }, T0);

    it('should always have capacity, no snapshot and no reset', () => {
      expect(quota.isConfigured('ghost')).toBe(false);
      expect(quota.hasCapacity('ghost', T0, 1e9)).toBe(true);
      expect(quota.snapshot('ghost', T0)).toEqual([]);
      expect(quota.nextResetMs('ghost', T0)).toBeNull();
    });
  });

  it.each<[string, QuotaLimits]>([
    ['no limits', {}],
    ['null limits', ALL_NULL],
    ['zero limits', { requestsPerMinute: 0, tokensPerDay: 0 }],
  ])('should treat %s as unlimited', (_label, limits) => {
    const quota = tracker(limits);
    quota.record('openai', { requests: 1_000_000, tokens: 1e12 }, T0);
    expect(quota.hasCapacity('openai', T0, 1e9)).toBe(true);
    expect(quota.nextResetMs('openai', T0)).toBeNull();
  });

  it.each<[string, QuotaLimits, { requests?: number; tokens?: number }[], number, number, boolean, number | null]>([
    ['under the request limit', { requestsPerMinute: 3 }, [{}, {}], T0, 0, true, null],
    ['at the request limit', { requestsPerMinute: 2 }, [{}, {}], T0, 0, false, NEXT_MINUTE],
    ['at the request limit by count', { requestsPerMinute: 5 }, [{ requests: 5 }], T0, 0, false, NEXT_MINUTE],
    ['a passed minute', { requestsPerMinute: 2 }, [{}, {}], NEXT_MINUTE, 0, true, null],
    ['the hourly request limit', { requestsPerHour: 1 }, [{}], T0 + 60_000, 0, false, NEXT_HOUR],
    ['the daily request limit', { requestsPerDay: 1 }, [{}], NEXT_HOUR, 0, false, NEXT_DAY],
    ['a passed day', { requestsPerDay: 1 }, [{}], NEXT_DAY, 0, true, null],
    ['under the token limit', { tokensPerMinute: 1000 }, [{ tokens: 999 }], T0, 0, true, null],
    ['at the token limit', { tokensPerMinute: 1000 }, [{ tokens: 1000 }], T0, 0, false, NEXT_MINUTE],
    ['over the token limit', { tokensPerMinute: 1000 }, [{ tokens: 1500 }], T0, 0, false, NEXT_MINUTE],
    ['an estimate that fits exactly', { tokensPerMinute: 1000 }, [{ tokens: 600 }], T0, 400, true, null],
    ['an estimate that does not fit', { tokensPerMinute: 1000 }, [{ tokens: 600 }], T0, 401, false, NEXT_MINUTE],
    ['an estimate alone over the limit', { tokensPerHour: 1000 }, [], T0, 1001, false, NEXT_HOUR],
    ['tokens recorded without a request', { requestsPerMinute: 1 }, [{ requests: 0, tokens: 5 }], T0, 0, true, null],
    [
      'minute and day exhausted: the soonest reset',
      { requestsPerMinute: 1, requestsPerDay: 1 },
      [{}],
      T0,
      0,
      false,
      NEXT_MINUTE,
    ],
    [
      'only the day exhausted after the minute passed',
      { requestsPerMinute: 1, requestsPerDay: 1 },
      [{}],
      NEXT_MINUTE,
      0,
      false,
      NEXT_DAY,
    ],
    [
      'hour exhausted by tokens while requests fit',
      { requestsPerMinute: 10, tokensPerHour: 100 },
      [{ tokens: 100 }],
      T0,
      0,
      false,
      NEXT_HOUR,
    ],
  ])('should judge %s', (_label, limits, calls, checkAt, estimate, capacity, resetAt) => {
    const quota = tracker(limits);
    for (const usage of calls) {
      quota.record('openai', usage, T0);
    }
    expect(quota.hasCapacity('openai', checkAt, estimate)).toBe(capacity);
    expect(quota.nextResetMs('openai', checkAt, estimate)).toBe(resetAt);
  });

  it('should snapshot every window with its usage, limits and reset', () => {
    const quota = tracker({ requestsPerMinute: 10, tokensPerHour: 5000, requestsPerDay: 0 });
    quota.record('openai', { tokens: 120 }, T0);
    quota.record('openai', { requests: 2, tokens: 30 }, T0 + 1000);
    expect(quota.snapshot('openai', T0 + 2000)).toEqual([
      {
        window: 'minute',
        requestsUsed: 3,
        requestLimit: 10,
        tokensUsed: 150,
        tokenLimit: null,
        resetsAtMs: NEXT_MINUTE,
      },
      { window: 'hour', requestsUsed: 3, requestLimit: null, tokensUsed: 150, tokenLimit: 5000, resetsAtMs: NEXT_HOUR },
      { window: 'day', requestsUsed: 3, requestLimit: null, tokensUsed: 150, tokenLimit: null, resetsAtMs: NEXT_DAY },
    ]);
  });

  it('should zero only the windows whose boundary has passed', () => {
    const quota = tracker({ requestsPerMinute: 10 });
    quota.record('openai', { tokens: 10 }, T0);
    const later = quota.snapshot('openai', NEXT_HOUR + 5);
    expect(later.map((w) => [w.window, w.requestsUsed, w.tokensUsed, w.resetsAtMs])).toEqual([
      ['minute', 0, 0, NEXT_HOUR + 60_000],
      ['hour', 0, 0, NEXT_HOUR + 3_600_000],
      ['day', 1, 10, NEXT_DAY],
    ]);
  });

  it('should keep counting into the current window when the clock steps back', () => {
    const quota = tracker({ requestsPerMinute: 2 });
    quota.record('openai', {}, NEXT_MINUTE + 10);
    quota.record('openai', {}, NEXT_MINUTE - 10);
    expect(quota.hasCapacity('openai', NEXT_MINUTE - 5)).toBe(false);
    expect(quota.nextResetMs('openai', NEXT_MINUTE - 5)).toBe(NEXT_MINUTE + 60_000);
  });

  it('should keep the counters of a reconfigured provider and apply the new limits', () => {
    const quota = tracker({ requestsPerMinute: 5 });
    quota.record('openai', { requests: 3 }, T0);
    quota.configure('openai', { requestsPerMinute: 3 });
    expect(quota.hasCapacity('openai', T0)).toBe(false);
    quota.configure('openai', {});
    expect(quota.hasCapacity('openai', T0)).toBe(true);
    expect(quota.snapshot('openai', T0)[0].requestsUsed).toBe(3);
  });

  it('should forget a removed provider', () => {
    const quota = tracker({ requestsPerMinute: 1 });
    quota.record('openai', {}, T0);
    expect(quota.remove('openai')).toBe(true);
    expect(quota.remove('openai')).toBe(false);
    expect(quota.hasCapacity('openai', T0)).toBe(true);
    quota.configure('openai', { requestsPerMinute: 1 });
    expect(quota.hasCapacity('openai', T0)).toBe(true);
  });

  it('should track providers independently', () => {
    const quota = tracker({ requestsPerMinute: 1 }, 'a');
    quota.configure('b', { requestsPerMinute: 1 });
    quota.record('a', {}, T0);
    expect(quota.hasCapacity('a', T0)).toBe(false);
    expect(quota.hasCapacity('b', T0)).toBe(true);
  });

  it.each<[string, (quota: QuotaTracker) => unknown, string]>([
    ['negative requests', (q) => q.record('openai', { requests: -1 }, T0), 'requests:'],
    ['fractional requests', (q) => q.record('openai', { requests: 0.5 }, T0), 'requests:'],
    ['negative tokens', (q) => q.record('openai', { tokens: -5 }, T0), 'tokens:'],
    ['NaN tokens', (q) => q.record('openai', { tokens: Number.NaN }, T0), 'tokens:'],
    ['a non-finite time on record', (q) => q.record('openai', {}, Number.NaN), 'nowMs:'],
    ['a non-finite time on hasCapacity', (q) => q.hasCapacity('openai', Number.POSITIVE_INFINITY), 'nowMs:'],
    ['a non-finite time on snapshot', (q) => q.snapshot('openai', Number.NaN), 'nowMs:'],
    ['a non-finite time on nextResetMs', (q) => q.nextResetMs('openai', Number.NaN), 'nowMs:'],
    ['a negative estimate', (q) => q.hasCapacity('openai', T0, -1), 'estimatedTokens:'],
    ['a fractional estimate on nextResetMs', (q) => q.nextResetMs('openai', T0, 1.5), 'estimatedTokens:'],
    ['a negative limit', (q) => q.configure('openai', { requestsPerHour: -1 }), 'requests_per_hour:'],
    ['a fractional limit', (q) => q.configure('openai', { tokensPerDay: 2.5 }), 'tokens_per_day:'],
  ])('should reject %s', (_label, act, field) => {
    const quota = tracker({ requestsPerMinute: 10 });
    const error = validationErrorOf(() => act(quota));
    expect(error.message).toContain(field);
  });

  it('should leave the limits untouched when a reconfiguration is rejected', () => {
    const quota = tracker({ requestsPerMinute: 1 });
    expect(() => quota.configure('openai', { requestsPerMinute: -1 })).toThrow(ValidationError);
    quota.record('openai', {}, T0);
    expect(quota.hasCapacity('openai', T0)).toBe(false);
  });
});
