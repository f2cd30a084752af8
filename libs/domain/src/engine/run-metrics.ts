/** Above this share of prompt tokens in a task's total, the run is logged with a warning. */
export const PROMPT_TOKEN_RATIO_WARNING = 0.3;

export interface RunTotals {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  durationSeconds: number;
  /** Tokens of the seed prompt (system prompt and task message) sent on the first call. */
  promptTokens: number;
}

export interface TaskCompletionMetrics {
  turns_per_task: number;
  tokens_per_task: number;
  cost_per_task: number;
  duration_seconds: number;
  prompt_tokens: number;
  prompt_token_ratio: number;
}

/** The per-task figures the interface names; the ratio is the seed prompt's share of all tokens. */
export function completionMetrics(totals: RunTotals): TaskCompletionMetrics {
  const tokens = totals.inputTokens + totals.outputTokens;
  return {
    turns_per_task: totals.turns,
    tokens_per_task: tokens,
    cost_per_task: Math.round(totals.cost * 1e6) / 1e6,
    duration_seconds: Math.round(totals.durationSeconds * 1000) / 1000,
    prompt_tokens: totals.promptTokens,
    prompt_token_ratio: tokens === 0 ? 0 : Math.round((totals.promptTokens / tokens) * 1e4) / 1e4,
  };
}

export function promptRatioTooHigh(metrics: TaskCompletionMetrics): boolean {
  return metrics.prompt_token_ratio > PROMPT_TOKEN_RATIO_WARNING;
}

/** Cost of one call from per-1k prices; negative or non-finite prices count as zero. */
export function costOfCall(
  prices: { costPer1kInput: number; costPer1kOutput: number } | undefined,
  inputTokens: number,
  outputTokens: number,
): number {
  if (!prices) {
    return 0;
  }
  const rate = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);
  const cost =
    (inputTokens / 1000) * rate(prices.costPer1kInput) + (outputTokens / 1000) * rate(prices.costPer1kOutput);
  return Math.round(cost * 1e8) / 1e8;
}
