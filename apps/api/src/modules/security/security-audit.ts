import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import type { SecurityRecordEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime, type Transaction } from '@app/platform';

import { SecurityRepository } from './security.repository';

/** What one security record says; the id and time are filled in. */
export type SecurityRecordInput = Omit<SecurityRecordEntity, 'id' | 'createdAt' | 'reason'> & { reason: string };

const REASON_MAX = 1024;

/**
 * Writes security records (tool-call verdicts, output scans, autonomy changes) and logs each under
 * `security.*`, which the audit log sink collects. A failed write throws: the tool-call guard then
 * refuses the call rather than let an unrecorded decision through.
 */
@Injectable()
export class SecurityAudit {
  private readonly log: Logger;

  constructor(
    private readonly repository: SecurityRepository,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security.audit');
  }

  async record(input: SecurityRecordInput, tx?: Transaction): Promise<SecurityRecordEntity> {
    const row: SecurityRecordEntity = {
      ...input,
      id: randomUUID(),
      reason: input.reason.length > REASON_MAX ? `${input.reason.slice(0, REASON_MAX - 1)}…` : input.reason,
      createdAt: new Date(),
    };
    await this.repository.insertRecord(row, tx);
    const level = row.enforced === 'deny' || row.enforced === 'escalate' ? 'warn' : 'info';
    this.log[level](
      {
        record_id: row.id,
        kind: row.kind,
        agent_id: row.agentId,
        task_id: row.taskId,
        tool: row.toolName,
        action_type: row.actionType,
        verdict: row.verdict,
        enforced: row.enforced,
        risk_level: row.riskLevel,
        mode: row.mode,
        finding: row.finding,
      },
      `security.${row.kind}.recorded`,
    );
    return row;
  }
}
