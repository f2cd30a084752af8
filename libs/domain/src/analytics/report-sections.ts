import { roundTo } from './time-buckets';

/** One finished run as the report sections read it. */
export interface ReportRun {
  readonly agentId: string;
  readonly success: boolean;
  readonly durationSeconds: number;
  readonly costUsd: number;
  readonly qualityScore: number | null;
}

/** Name and department of an agent on the roster. */
export interface RosterEntry {
  readonly name: string;
  readonly department: string;
}

export interface AgentPerformanceRow {
  agent_id: string;
  agent_name: string | null;
  department: string | null;
  tasks_completed: number;
  tasks_failed: number;
  success_rate: number;
  avg_duration_seconds: number;
  total_cost_usd: number;
  avg_quality_score: number | null;
}

export interface CompletionCounts {
  runs: number;
  completed: number;
  failed: number;
  completion_rate: number;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;

function countsOf(runs: readonly ReportRun[]): CompletionCounts {
  const completed = runs.filter((run) => run.success).length;
  return {
    runs: runs.length,
    completed,
    failed: runs.length - completed,
    completion_rate: runs.length === 0 ? 0 : roundTo(completed / runs.length, 4),
  };
}

function groupBy<K>(runs: readonly ReportRun[], key: (run: ReportRun) => K): Map<K, ReportRun[]> {
  const groups = new Map<K, ReportRun[]>();
  for (const run of runs) {
    const k = key(run);
    groups.set(k, [...(groups.get(k) ?? []), run]);
  }
  return groups;
}

/** Per-agent outcomes, most runs first, then by agent id. */
export function agentPerformance(
  runs: readonly ReportRun[],
  roster: ReadonlyMap<string, RosterEntry>,
): AgentPerformanceRow[] {
  return [...groupBy(runs, (run) => run.agentId)]
    .map(([agentId, own]) => {
      const counts = countsOf(own);
      const scores = own.map((run) => run.qualityScore).filter((s): s is number => s !== null);
      const entry = roster.get(agentId);
      return {
        agent_id: agentId,
        agent_name: entry?.name ?? null,
        department: entry?.department ?? null,
        tasks_completed: counts.completed,
        tasks_failed: counts.failed,
        success_rate: counts.completion_rate,
        avg_duration_seconds: roundTo(mean(own.map((run) => run.durationSeconds)), 3),
        total_cost_usd: roundTo(
          own.reduce((sum, run) => sum + run.costUsd, 0),
          6,
        ),
        avg_quality_score: scores.length === 0 ? null : roundTo(mean(scores), 4),
      };
    })
    .sort(
      (a, b) =>
        b.tasks_completed + b.tasks_failed - (a.tasks_completed + a.tasks_failed) || cmp(a.agent_id, b.agent_id),
    );
}

/** Completion counts overall and per department (agents no longer on the roster under null). */
export function taskCompletion(
  runs: readonly ReportRun[],
  roster: ReadonlyMap<string, RosterEntry>,
): CompletionCounts & { by_department: (CompletionCounts & { department: string | null })[] } {
  const byDepartment = [...groupBy(runs, (run) => roster.get(run.agentId)?.department ?? null)]
    .map(([department, own]) => ({ department, ...countsOf(own) }))
    .sort((a, b) => cmp(a.department ?? '\uffff', b.department ?? '\uffff'));
  return { ...countsOf(runs), by_department: byDepartment };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
