/** Runs before a coordination that the metrics compare it with (spec: baseline_window 50). */
export const COORDINATION_BASELINE_WINDOW = 50;

/** One run as the metrics see it. */
export interface MetricRun {
  readonly turns: number;
  readonly tokens: number;
  readonly success: boolean;
}

export interface CoordinationMetricsInput {
  /** The subtasks' runs (each subtask's last run). */
  readonly subtaskRuns: readonly MetricRun[];
  /** Subtasks created; those without a run count as not successful. */
  readonly subtasks: number;
  /** Tokens of the coordination's own calls (decomposition). */
  readonly coordinationTokens: number;
  /** Messages the subtasks' agents sent while working on them. */
  readonly messages: number;
  /** Subtasks that repeat an earlier one of the same decomposition (same title and description). */
  readonly duplicates: number;
  /** Earlier single runs, newest first, at most the baseline window. */
  readonly baseline: readonly MetricRun[];
}

/**
 * Coordination metrics (spec "Coordination metrics"), against the baseline of single runs:
 * - efficiency: the subtasks' success rate per unit of relative work (their turns over one baseline
 *   run's turns); null without a baseline;
 * - overhead: the extra tokens (the coordination's and the subtasks' over one baseline run's), as a
 *   share of the baseline run; null without a baseline;
 * - error_amplification: the subtasks' failure rate over the baseline's; null when the baseline has
 *   no failure to compare with;
 * - message_density: messages per turn of the subtasks;
 * - redundancy: the share of subtasks that repeat another.
 */
export interface CoordinationMetrics {
  efficiency: number | null;
  overhead: number | null;
  error_amplification: number | null;
  message_density: number;
  redundancy: number;
}

const round = (value: number): number => Math.round(value * 1e4) / 1e4;
const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

export function coordinationMetrics(input: CoordinationMetricsInput): CoordinationMetrics {
  const baseline = input.baseline.slice(0, COORDINATION_BASELINE_WINDOW);
  const subtasks = Math.max(input.subtasks, input.subtaskRuns.length);
  const turns = input.subtaskRuns.reduce((sum, r) => sum + r.turns, 0);
  const tokens = input.subtaskRuns.reduce((sum, r) => sum + r.tokens, 0) + input.coordinationTokens;
  const successRate = subtasks === 0 ? 0 : input.subtaskRuns.filter((r) => r.success).length / subtasks;
  const baseTurns = baseline.length > 0 ? mean(baseline.map((r) => r.turns)) : 0;
  const baseTokens = baseline.length > 0 ? mean(baseline.map((r) => r.tokens)) : 0;
  const baseFailure = baseline.length > 0 ? baseline.filter((r) => !r.success).length / baseline.length : 0;
  return {
    efficiency: baseTurns > 0 && turns > 0 ? round(successRate / (turns / baseTurns)) : null,
    overhead: baseTokens > 0 ? round((tokens - baseTokens) / baseTokens) : null,
    error_amplification: baseFailure > 0 ? round((1 - successRate) / baseFailure) : null,
    message_density: turns > 0 ? round(input.messages / turns) : 0,
    redundancy: subtasks > 0 ? round(input.duplicates / subtasks) : 0,
  };
}

/** Subtasks that repeat an earlier one (same title and description, case and spacing aside). */
export function duplicateSubtasks(subtasks: readonly { title: string; description: string }[]): number {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const s of subtasks) {
    const key = `${s.title}\n${s.description}`.toLowerCase().replace(/\s+/g, ' ').trim();
    duplicates += seen.has(key) ? 1 : 0;
    seen.add(key);
  }
  return duplicates;
}
