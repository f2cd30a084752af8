import {
  completionMetrics,
  costOfCall,
  PROMPT_TOKEN_RATIO_WARNING,
  promptRatioTooHigh,
  type RunTotals,
  type TaskCompletionMetrics,
} from '@app/domain';

const totals = (overrides: Partial<RunTotals> = {}): RunTotals => ({
  turns: 3,
  inputTokens: 800,
  outputTokens: 200,
  cost: 0.0123,
  durationSeconds: 12.5,
  promptTokens: 250,
  ...overrides,
});

const withRatio = (prompt_token_ratio: number): TaskCompletionMetrics => ({
  ...completionMetrics(totals()),
  prompt_token_ratio,
});

describe('completionMetrics', () => {
  it('should report the per-task figures with snake_case names', () => {
    expect(completionMetrics(totals())).toEqual({
      turns_per_task: 3,
      tokens_per_task: 1000,
      cost_per_task: 0.0123,
      duration_seconds: 12.5,
      prompt_tokens: 250,
      prompt_token_ratio: 0.25,
    });
  });

  it('should answer a ratio of 0 when no tokens were used', () => {
    const metrics = completionMetrics(totals({ inputTokens: 0, outputTokens: 0, promptTokens: 0 }));
    expect(metrics.tokens_per_task).toBe(0);
    expect(metrics.prompt_token_ratio).toBe(0);
  });

  it('should answer a ratio of 0 when no tokens were used even with prompt tokens', () => {
    expect(completionMetrics(totals({ inputTokens: 0, outputTokens: 0, promptTokens: 50 })).prompt_token_ratio).toBe(0);
  });

  it.each<[Partial<RunTotals>, keyof TaskCompletionMetrics, number]>([
    [{ inputTokens: 2, outputTokens: 1, promptTokens: 1 }, 'prompt_token_ratio', 0.3333],
    [{ inputTokens: 2, outputTokens: 1, promptTokens: 2 }, 'prompt_token_ratio', 0.6667],
    [{ inputTokens: 30000, outputTokens: 0, promptTokens: 9001 }, 'prompt_token_ratio', 0.3],
    [{ cost: 0.12345678 }, 'cost_per_task', 0.123457],
    [{ cost: 0.0000004 }, 'cost_per_task', 0],
    [{ durationSeconds: 1.23456 }, 'duration_seconds', 1.235],
    [{ durationSeconds: 0.0004 }, 'duration_seconds', 0],
  ])('should round %j to %s %d', (overrides, field, expected) => {
    expect(completionMetrics(totals(overrides))[field]).toBe(expected);
  });
});

describe('promptRatioTooHigh', () => {
  it.each([
    [0, false],
    [0.2999, false],
    [0.3, false],
    [0.3001, true],
    [0.5, true],
    [1, true],
  ])('should answer for a ratio of %d: %s', (ratio, expected) => {
    expect(promptRatioTooHigh(withRatio(ratio))).toBe(expected);
  });

  it('should warn above 0.3', () => {
    expect(PROMPT_TOKEN_RATIO_WARNING).toBe(0.3);
  });

  it('should not warn for a computed ratio of exactly 0.3', () => {
    expect(
      promptRatioTooHigh(completionMetrics(totals({ inputTokens: 700, outputTokens: 300, promptTokens: 300 }))),
    ).toBe(false);
  });
});

describe('costOfCall', () => {
  const prices = { costPer1kInput: 0.003, costPer1kOutput: 0.015 };

  it.each<[number, number, number]>([
    [1000, 1000, 0.018],
    [0, 0, 0],
    [500, 0, 0.0015],
    [0, 2000, 0.03],
    [1234, 567, 0.012207],
    [1, 1, 0.000018],
  ])('should price %i input and %i output tokens at %d', (input, output, expected) => {
    expect(costOfCall(prices, input, output)).toBeCloseTo(expected, 8);
  });

  it('should round to 8 decimals', () => {
    expect(costOfCall({ costPer1kInput: 0.000001, costPer1kOutput: 0 }, 1, 0)).toBe(0);
    expect(costOfCall({ costPer1kInput: 1 / 3, costPer1kOutput: 0 }, 1000, 0)).toBe(0.33333333);
  });

  it('should answer 0 without pricing', () => {
    expect(costOfCall(undefined, 1_000_000, 1_000_000)).toBe(0);
  });

  it.each([-0.01, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'should treat a price of %d as 0',
    (bad) => {
      expect(costOfCall({ costPer1kInput: bad, costPer1kOutput: 0.015 }, 1000, 1000)).toBeCloseTo(0.015, 8);
      expect(costOfCall({ costPer1kInput: 0.003, costPer1kOutput: bad }, 1000, 1000)).toBeCloseTo(0.003, 8);
      expect(costOfCall({ costPer1kInput: bad, costPer1kOutput: bad }, 1000, 1000)).toBe(0);
    },
  );
});
