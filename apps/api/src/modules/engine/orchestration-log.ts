import type { Logger } from 'pino';

import type { OrchestrationReport } from '@app/domain';

/**
 * Logs an orchestration report with the spec's levels: the ratio above 0.30 (info), 0.50 (warn) or
 * 0.70 (critical, logged as an error), and a retry rate above 0.1. `scope` names the logging side
 * (`engine.run` for a run, `coordination.task` for a coordination).
 */
export function logOrchestration(
  log: Logger,
  scope: string,
  taskId: string,
  report: OrchestrationReport,
  extra: Record<string, unknown> = {},
): void {
  const fields = {
    ...extra,
    task_id: taskId,
    orchestration_ratio: report.orchestration_ratio,
    alert_level: report.alert_level,
  };
  const event = `${scope}.orchestration_ratio`;
  if (report.alert_level === 'critical') {
    log.error(fields, event);
  } else if (report.alert_level === 'warn') {
    log.warn(fields, event);
  } else if (report.alert_level === 'info') {
    log.info(fields, event);
  }
  if (report.retry_warning) {
    log.warn({ task_id: taskId, retry_rate: report.retry_rate }, `${scope}.retry_rate_high`);
  }
}
