// Where the engine benchmark's tasks spent their time, read from the service's log.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type LogSplit, mean } from './engine-report';
import { ms, type TaskView } from './engine-tasks';

/**
 * Where a task's wall time went, from the service's JSON log (event times have millisecond
 * resolution; averaged over the measured tasks): the claim (started_at to engine.run.started), the
 * model calls as timed by the recording driver, the tools, the merge of the worktree (last cost
 * record to engine.task.metrics), the outcome's write (engine.task.metrics to completed_at; the
 * metric row is written before it, beside the last cost record), and the rest of the loop: per call,
 * the provider_calls row, the cost record and its budget event.
 */
export function splitFromLogs(logDir: string, tasks: TaskView[]): LogSplit | null {
  interface Seen {
    runStarted: number;
    lastCost: number;
    metrics: number;
    provider: number;
    calls: number;
    tool: number;
  }
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const perTask = new Map<string, Seen>();
  let files: string[];
  try {
    // synthorg.log has every event at info and above once (the other sinks repeat subsets of it).
    files = readdirSync(logDir).filter((f) => f.startsWith('synthorg.log'));
  } catch {
    return null;
  }
  for (const file of files) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{') || !line.includes('"task_id"')) {
        continue;
      }
      let rec: Record<string, unknown>;
      try {
        rec = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      const id = rec.task_id;
      if (typeof id !== 'string' || !byId.has(id)) {
        continue;
      }
      const at = Date.parse(String(rec.time));
      const row = perTask.get(id) ?? { runStarted: NaN, lastCost: NaN, metrics: NaN, provider: 0, calls: 0, tool: 0 };
      perTask.set(id, row);
      switch (rec.event) {
        case 'engine.run.started':
          row.runStarted = at;
          break;
        case 'provider.call.completed':
          row.provider += Number(rec.latency_ms ?? 0);
          row.calls += 1;
          break;
        case 'budget.record.added':
          row.lastCost = at;
          break;
        case 'engine.tool.invoked':
          row.tool += Number(rec.duration_ms ?? 0);
          break;
        case 'engine.task.metrics':
          row.metrics = at;
          break;
        default:
      }
    }
  }
  const rows = [...perTask.entries()]
    .map(([id, seen]) => ({ seen, task: byId.get(id) as TaskView }))
    .filter(({ seen }) => seen.calls > 0 && Number.isFinite(seen.runStarted + seen.metrics + seen.lastCost));
  if (rows.length === 0) {
    return null;
  }
  const avg = (pick: (seen: Seen, task: TaskView) => number) => mean(rows.map((r) => pick(r.seen, r.task)));
  const claimMs = avg((x, t) => x.runStarted - ms(t.started_at));
  const providerMs = avg((x) => x.provider);
  const toolMs = avg((x) => x.tool);
  const mergeMs = avg((x) => x.metrics - x.lastCost);
  const outcomeMs = avg((x, t) => ms(t.completed_at) - x.metrics);
  const wallMs = avg((_x, t) => ms(t.completed_at) - ms(t.started_at));
  return {
    tasks: rows.length,
    calls: avg((x) => x.calls),
    claimMs,
    providerMs,
    toolMs,
    mergeMs,
    outcomeMs,
    recordsMs: wallMs - claimMs - providerMs - toolMs - mergeMs - outcomeMs,
  };
}
