// The engine benchmark's results and their printed report.
import { availableParallelism, loadavg } from 'node:os';

import {
  type Backend,
  CREATE_IN_FLIGHT,
  IDLE_GAP_MS,
  OVERHEAD_TARGET_MS,
  OVERHEAD_TASKS,
  SLOTS,
  STATUSES,
  TASKS,
} from './engine-config';
import type { Created, TaskView, Waited } from './engine-tasks';
import type { SeededHistory } from './history';

export interface OverheadResult {
  variant: string;
  calls: number;
  tasks: number;
  completed: number;
  measured: number;
  warmupExcluded: boolean;
  wall: number[];
  fakeMs: number;
  /** The fake's round trip after an idle gap (information only). */
  fakeIdleMs: number;
  perCall: number[];
  cycleMs: number | null;
  /**
   * CPU time of the whole service process (every thread) per task, from the last create to the last
   * completion: steadier than wall time on a machine whose wake-ups are slow. Null off Linux.
   */
  cpuMsPerTask: number | null;
  chatRequests: number;
  split: LogSplit | null;
  measuredTasks: TaskView[];
  waited: Waited;
}

export interface LogSplit {
  tasks: number;
  calls: number;
  claimMs: number;
  providerMs: number;
  recordsMs: number;
  toolMs: number;
  mergeMs: number;
  outcomeMs: number;
}

export interface ThroughputResult {
  created: Created;
  waited: Waited;
  statuses: Record<string, number>;
  completed: number;
  elapsedMs: number;
  perMinute: number;
  latencySec: number[];
  chatRequests: number;
  stuck: TaskView[];
  /** How the service process died during the run, if it did (the counts come from a restart without the engine). */
  died: string | null;
}

export interface BackendResult {
  backend: Backend;
  history: SeededHistory | null;
  overhead: OverheadResult[];
  throughput: ThroughputResult | null;
  error: string | null;
}

export const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
export const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) : NaN;
};

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
const mark = (ok: boolean): string => (ok ? '✓ met' : '✗ NOT met');
export const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** Per call without the tools' own time and the worktree merge (multi-turn variant), from the log split. */
function withoutToolsPerCall(o: OverheadResult): number | null {
  if (!o.split || o.calls === 1) {
    return null;
  }
  return (mean(o.wall) - o.split.toolMs - o.split.mergeMs - o.calls * o.fakeMs) / o.calls;
}

function reportOverhead(results: BackendResult[], out: (line: string) => void): void {
  out(`\nEngine overhead per model call (one engine slot; ${OVERHEAD_TASKS} tasks per variant)`);
  out(
    'backend   variant                     tasks calls  wall ms/task p50    p95  fake ms/call  overhead ms/call mean    p50    p95  cycle ms/call',
  );
  for (const r of results) {
    for (const o of r.overhead) {
      out(
        `${r.backend.padEnd(9)} ${o.variant.padEnd(26)} ${String(o.measured).padStart(6)} ${String(o.calls).padStart(5)} ` +
          `${f1(percentile(o.wall, 50)).padStart(17)} ${f1(percentile(o.wall, 95)).padStart(6)} ${f2(o.fakeMs).padStart(13)} ` +
          `${f2(mean(o.perCall)).padStart(21)} ${f2(percentile(o.perCall, 50)).padStart(6)} ${f2(percentile(o.perCall, 95)).padStart(6)} ` +
          `${f1(o.cycleMs ?? Number.NaN).padStart(14)}`,
      );
      const notes: string[] = [];
      if (o.completed < o.tasks) {
        notes.push(`only ${o.completed}/${o.tasks} completed (${o.waited.outcome})`);
      }
      if (o.chatRequests !== o.tasks * o.calls) {
        notes.push(
          `${o.chatRequests} model calls, expected ${o.tasks * o.calls}: the script and the runs were out of step`,
        );
      }
      if (!o.warmupExcluded) {
        notes.push('every task measured (too few started after the last create)');
      }
      if (o.cpuMsPerTask !== null) {
        notes.push(
          `service CPU: ${f2(o.cpuMsPerTask)} ms per task (every thread, from the last create to the last completion; ` +
            `the bench's count polls included)`,
        );
      }
      if (o.split) {
        const x = o.split;
        notes.push(
          `per task, ms (service log, ${x.tasks} tasks): claim ${f1(x.claimMs)} | model calls ${f1(x.providerMs)} ` +
            `(${f1(x.calls)}, timed by the driver) | cost records + events + loop ${f1(x.recordsMs)} | tools ${f1(x.toolMs)} | ` +
            `merge ${f1(x.mergeMs)} | metric + outcome ${f1(x.outcomeMs)}`,
        );
      }
      const bare = withoutToolsPerCall(o);
      if (bare !== null) {
        notes.push(`without the tools' own time and the merge: ${f2(bare)} ms per call`);
      }
      if (Number.isFinite(o.fakeIdleMs)) {
        const idleOverhead = mean(o.perCall) - (o.fakeIdleMs - o.fakeMs);
        notes.push(
          `the fake after ${IDLE_GAP_MS} ms idle: ${f2(o.fakeIdleMs)} ms per call (back to back ${f2(o.fakeMs)}); ` +
            `overhead with that time: ${f2(idleOverhead)} ms per call (information only)`,
        );
      }
      for (const note of notes) {
        out(`          ${note}`);
      }
    }
  }
  out('  wall: started_at -> completed_at of a task: the claim (compare-and-set), each model call through the');
  out('  OpenAI SDK and the recording driver (+ provider_calls row), a cost record + budget event per call, the');
  out('  tools (+ tool_invocations row; read-only tools use the base checkout, the first write creates the git');
  out('  worktree and completion merges it), the metric row (written while the cost records land) and the');
  out('  in_progress -> in_review -> completed write (one compare-and-set, an event per step).');
  out("  fake: median round trip from here to the fake with the engine's own request bodies, back to back.");
  out('  overhead = (wall - calls x fake) / calls; the verdict uses it. The engine');
  out('  meets the fake once per call, after idling: the round trip timed that way is printed for information.');
  out('  cycle: interval between completions / calls = wall + queue pickup, task load, routing, pre-flight, job');
  out('  bookkeeping. Tasks started while the bench was still creating tasks are left out.');
}

function reportThroughput(results: BackendResult[], out: (line: string) => void): void {
  out(
    `\nThroughput (${TASKS} trivial tasks, 1 model call each, ${SLOTS} engine slots, agents round-robin, ${CREATE_IN_FLIGHT} creates in flight)`,
  );
  out('backend   completed     stuck  create errors  creating s  elapsed s  tasks/min  latency p50/p95 s  wait ended');
  for (const r of results) {
    const t = r.throughput;
    if (!t) {
      continue;
    }
    out(
      `${r.backend.padEnd(9)} ${`${t.completed}/${TASKS}`.padEnd(10)} ${String(TASKS - t.completed).padStart(8)} ` +
        `${String(t.created.errors).padStart(14)} ${f1((t.created.endedAt - t.created.startedAt) / 1000).padStart(11)} ` +
        `${f1(t.elapsedMs / 1000).padStart(10)} ${f1(t.perMinute).padStart(10)} ` +
        `${`${f1(percentile(t.latencySec, 50))}/${f1(percentile(t.latencySec, 95))}`.padStart(18)}  ${t.waited.outcome}`,
    );
    out(
      `          statuses: ${STATUSES.map((s) => `${s}=${t.statuses[s] ?? 0}`).join(' ')}; model calls ${t.chatRequests}`,
    );
    const pollBound = SLOTS * 60;
    if (r.backend === 'postgres' && Math.abs(t.perMinute - pollBound) < pollBound * 0.05) {
      out(
        `          = ${SLOTS} slots x 1 job per second: each pg-boss worker slot fetches at most once per polling interval (1 s)`,
      );
    }
    if (t.died) {
      out(`          the service process died during the run: ${t.died}`);
      out('          (counts read back by a restarted service with the engine off)');
    }
    if (t.created.firstError) {
      out(`          first create error: ${t.created.firstError}`);
    }
    for (const task of t.stuck) {
      const reason = task.status_reason ? ` (${task.status_reason.slice(0, 100)})` : '';
      out(`          stuck: ${task.id} ${task.status}${reason}`);
    }
  }
  out('  elapsed: first create sent -> last completed_at; latency: created_at -> completed_at of each task.');
}

function reportTargets(results: BackendResult[], out: (line: string) => void): void {
  out('\nTargets');
  for (const r of results) {
    const name = r.backend.padEnd(9);
    if (r.error) {
      out(`${name} bench failed: ${r.error}`);
    }
    if (r.overhead.length > 0) {
      const parts = r.overhead.map((o) => {
        const perCall = mean(o.perCall);
        const bare = withoutToolsPerCall(o);
        const without = bare === null ? '' : ` (without tools + merge ${f2(bare)} ${mark(bare < OVERHEAD_TARGET_MS)})`;
        return `${o.variant} ${f2(perCall)} ${mark(perCall < OVERHEAD_TARGET_MS)}${without}`;
      });
      out(`${name} engine overhead < ${OVERHEAD_TARGET_MS} ms per model call, mean: ${parts.join('; ')}`);
    }
    const t = r.throughput;
    if (t) {
      const ok = t.completed === TASKS && t.created.errors === 0;
      out(
        `${name} ${TASKS} trivial tasks complete without a stuck task: ${mark(ok)} ` +
          `(${t.completed} completed, ${TASKS - t.completed} not; ${f1(t.perMinute)} tasks/min)`,
      );
    }
  }
}

export function report(results: BackendResult[], loadBefore: string, out: (line: string) => void): void {
  out(
    `\nWork-engine benchmark: zero-latency fake provider (mock-llm, OpenAI protocol, in the bench process); ` +
      `node ${process.version}, ${availableParallelism()} CPUs, load average ${loadBefore} before, ${loadAverage()} after`,
  );
  for (const r of results) {
    const h = r.history;
    out(
      h
        ? `${r.backend.padEnd(9)} history: ${h.rowsPerTable} rows in each of ${h.tables.join(', ')} (${h.agents} agents; seeded in ${f1(h.seconds)} s)`
        : `${r.backend.padEnd(9)} history: none (empty tables)`,
    );
  }
  reportOverhead(results, out);
  reportThroughput(results, out);
  reportTargets(results, out);
}
