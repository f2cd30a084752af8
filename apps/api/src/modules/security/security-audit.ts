import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import type { SecurityRecordEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime, type Transaction } from '@app/platform';

import { AuditTrail } from '../audit';
import { SecurityRepository } from './security.repository';

/** What one security record says; the id and time are filled in. */
export type SecurityRecordInput = Omit<SecurityRecordEntity, 'id' | 'createdAt' | 'reason'> & { reason: string };

const REASON_MAX = 1024;

/**
 * Writes security records (tool-call verdicts, output scans, autonomy changes) and logs each under
 * `security.*`, which the audit log sink collects. A failed write throws: the tool-call guard then
 * refuses the call rather than let an unrecorded decision through. Every decision that is not a
 * plain allow (a deny, an escalation, a shadow-mode deny, a finding of the output scan, an autonomy
 * change) also goes into the hash-chained audit trail; plain allows, one per tool call, stay in the
 * security records only, so the trail's serial chain is not on every tool call's path.
 */
@Injectable()
export class SecurityAudit {
  private readonly log: Logger;

  constructor(
    private readonly repository: SecurityRepository,
    private readonly trail: AuditTrail,
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
    if (row.kind !== 'tool_call' || row.verdict !== 'allow' || row.enforced !== 'allow') {
      const written = this.trail.record({
        actor: row.actor,
        action: `security.${row.kind}`,
        target: row.taskId ? `task:${row.taskId}` : row.agentId ? `agent:${row.agentId}` : null,
        outcome: row.enforced === 'deny' ? 'denied' : 'success',
        details: {
          record_id: row.id,
          agent_id: row.agentId,
          tool: row.toolName,
          action_type: row.actionType,
          verdict: row.verdict,
          enforced: row.enforced,
          risk_level: row.riskLevel,
          mode: row.mode,
          finding: row.finding,
        },
      });
      // Inside a caller's transaction the trail's own write must not wait on it (it never fails).
      if (!tx) {
        await written;
      }
    }
    return row;
  }
}
