/** Warning code under which sink failures surface (process 'warning' event, stderr by default). */
export const SINK_WARNING_CODE = 'SYNTHORG_LOG_SINK';

const REPORT_INTERVAL_MS = 30_000;
const lastReportAt = new Map<string, number>();

/**
 * Reports a failing sink out of band. A sink cannot log its own failure through the logger (that
 * would recurse into the failing sink), so it raises a process warning, at most once per sink and
 * problem every 30 s so a dead endpoint cannot flood stderr. `problem` must therefore be a fixed
 * text (no counters); the varying detail goes into `error`.
 */
export function reportSinkProblem(identifier: string, problem: string, error?: unknown): void {
  const key = `${identifier}\u0000${problem}`;
  const now = Date.now();
  const last = lastReportAt.get(key);
  if (last !== undefined && now - last < REPORT_INTERVAL_MS) {
    return;
  }
  if (lastReportAt.size > 1000) {
    lastReportAt.clear();
  }
  lastReportAt.set(key, now);
  const detail = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  const reason = detail === undefined ? '' : `: ${detail}`;
  process.emitWarning(`log sink ${identifier}: ${problem}${reason}`, { code: SINK_WARNING_CODE });
}
