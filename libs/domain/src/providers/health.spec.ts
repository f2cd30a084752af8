import {
  errorRatePercent,
  providerHealthStatus,
  summariseProviderHealth,
  type ProviderCallStats,
  type ProviderHealthStatus,
} from './health';

const stats = (overrides: Partial<ProviderCallStats> = {}): ProviderCallStats => ({
  calls: 0,
  errors: 0,
  totalLatencyMs: 0,
  totalTokens: 0,
  totalCost: 0,
  lastCallAt: null,
  ...overrides,
});

describe('providerHealthStatus', () => {
  it.each<[number, number, ProviderHealthStatus]>([
    [0, 0, 'unknown'],
    [0, 3, 'unknown'],
    [-1, 0, 'unknown'],
    [Number.NaN, 0, 'unknown'],
    [1, 0, 'up'],
    [100, 9, 'up'],
    [1000, 99, 'up'],
    [10, 1, 'degraded'],
    [100, 10, 'degraded'],
    [100, 49, 'degraded'],
    [1000, 499, 'degraded'],
    [2, 1, 'down'],
    [100, 50, 'down'],
    [10, 10, 'down'],
    [10, 25, 'down'],
  ])('should rate %d calls with %d errors as %s', (calls, errors, status) => {
    expect(providerHealthStatus(calls, errors)).toBe(status);
  });
});

describe('errorRatePercent', () => {
  it.each<[number, number, number]>([
    [0, 0, 0],
    [0, 5, 0],
    [4, 1, 25],
    [3, 1, 100 / 3],
    [10, 20, 100],
    [10, -2, 0],
  ])('should rate %d calls with %d errors at %d %%', (calls, errors, rate) => {
    expect(errorRatePercent(calls, errors)).toBeCloseTo(rate, 10);
  });
});

describe('summariseProviderHealth', () => {
  it('should report unknown health with no calls', () => {
    expect(summariseProviderHealth(stats())).toEqual({
      last_check_timestamp: null,
      avg_response_time_ms: null,
      error_rate_percent_24h: 0,
      calls_last_24h: 0,
      health_status: 'unknown',
      total_tokens_24h: 0,
      total_cost_24h: 0,
    });
  });

  it('should summarise calls into the wire shape', () => {
    expect(
      summariseProviderHealth(
        stats({
          calls: 3,
          errors: 1,
          totalLatencyMs: 1000,
          totalTokens: 4500,
          totalCost: 0.123_456_789,
          lastCallAt: new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6)),
        }),
      ),
    ).toEqual({
      last_check_timestamp: '2025-01-02T03:04:05.006Z',
      avg_response_time_ms: 333.3,
      error_rate_percent_24h: 33.3,
      calls_last_24h: 3,
      health_status: 'degraded',
      total_tokens_24h: 4500,
      total_cost_24h: 0.123457,
    });
  });

  it.each<[string, Partial<ProviderCallStats>, Partial<ReturnType<typeof summariseProviderHealth>>]>([
    ['latency rounded to 0.1 ms', { calls: 4, totalLatencyMs: 1001 }, { avg_response_time_ms: 250.3 }],
    ['latency rounded half up', { calls: 4, totalLatencyMs: 1002 }, { avg_response_time_ms: 250.5 }],
    [
      'an error rate rounded to 0.1',
      { calls: 7, errors: 1 },
      { error_rate_percent_24h: 14.3, health_status: 'degraded' },
    ],
    // 9.99 % rounds to 10.0 for display but the status uses the exact rate.
    [
      'an exact rate just under the threshold',
      { calls: 10_000, errors: 999 },
      { error_rate_percent_24h: 10, health_status: 'up' },
    ],
    [
      'errors capped at the call count',
      { calls: 2, errors: 5 },
      { error_rate_percent_24h: 100, health_status: 'down' },
    ],
    ['a cost rounded to 6 decimals', { calls: 1, totalCost: 1.000_000_49 }, { total_cost_24h: 1 }],
    ['a cost rounded up at 6 decimals', { calls: 1, totalCost: 2.000_000_5 }, { total_cost_24h: 2.000_001 }],
    [
      'a last call without latency',
      { calls: 0, lastCallAt: new Date(0) },
      { last_check_timestamp: '1970-01-01T00:00:00.000Z' },
    ],
  ])('should report %s', (_label, input, expected) => {
    expect(summariseProviderHealth(stats(input))).toMatchObject(expected);
  });
});
