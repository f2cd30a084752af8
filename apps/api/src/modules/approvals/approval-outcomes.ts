import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel } from '@app/domain';
import type { ApprovalItemEntity } from '@app/persistence';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AuditTrail } from '../audit';
import { RunParking } from '../engine';
import { toApproval } from './approvals.mapper';
import { ApprovalPolicy } from './approval-policy';

type ApprovalEventType = 'approval.created' | 'approval.decided' | 'approval.expired' | 'approval.escalated';

/**
 * What follows a stored change of an item: its event on the `approvals` channel and, for a decision
 * or an expiry, the parked run's resumption (an expiry resumes it with a refusal).
 */
@Injectable()
export class ApprovalOutcomes {
  private readonly log: Logger;

  constructor(
    private readonly bus: EventBus,
    private readonly parking: RunParking,
    private readonly policy: ApprovalPolicy,
    private readonly audit: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('approvals');
  }

  async created(row: ApprovalItemEntity): Promise<void> {
    this.log.info({ approval_id: row.id, risk_level: row.riskLevel, task_id: row.taskId }, 'approvals.item.created');
    await this.announce('approval.created', row);
  }

  async escalated(row: ApprovalItemEntity): Promise<void> {
    this.log.info({ approval_id: row.id, role: row.assignedRole }, 'approvals.item.escalated');
    await this.announce('approval.escalated', row);
  }

  /**
   * A decision or an expiry: announced, then the parked run (if one waits on the item) resumes, then
   * the audit trail records it. The trail's write comes last so that it is not on the path from a
   * decision to the resumed run; it is still written before the decision's answer.
   */
  async settled(row: ApprovalItemEntity): Promise<void> {
    const expired = row.status === 'expired';
    const type = expired ? 'approval.expired' : 'approval.decided';
    this.log.info(
      { approval_id: row.id, status: row.status, decided_by: row.decidedBy },
      expired ? 'approvals.item.expired' : 'approvals.item.decided',
    );
    await this.publish(type, row);
    await this.resume(row);
    await this.record(type, row);
  }

  /** Hands the decision to the run parked on the item; a failure is left for the startup re-dispatch. */
  async resume(row: ApprovalItemEntity): Promise<void> {
    try {
      await this.parking.decide({
        approvalId: row.id,
        approved: row.status === 'approved',
        reason: row.decisionReason ?? (row.status === 'expired' ? 'the approval expired without a decision' : null),
        decidedBy: row.decidedBy ?? 'system',
        onRefusal: this.policy.rejection(),
      });
    } catch (error) {
      this.log.error({ err: error, approval_id: row.id }, 'approvals.item.resume_failed');
    }
  }

  /** Every approval event goes into the audit trail and on the `approvals` channel. */
  private async announce(type: ApprovalEventType, row: ApprovalItemEntity): Promise<void> {
    await this.record(type, row);
    await this.publish(type, row);
  }

  private async record(type: ApprovalEventType, row: ApprovalItemEntity): Promise<void> {
    const actor =
      type === 'approval.created' ? row.requestedBy : type === 'approval.escalated' ? 'system' : row.decidedBy;
    await this.audit.record({
      actor: actor ?? 'system',
      action: type,
      target: `approval:${row.id}`,
      outcome: row.status === 'rejected' || row.status === 'expired' ? 'denied' : 'success',
      details: {
        status: row.status,
        action_type: row.actionType,
        risk_level: row.riskLevel,
        task_id: row.taskId,
        reason: row.decisionReason,
        assigned_role: row.assignedRole,
      },
    });
  }

  private async publish(type: ApprovalEventType, row: ApprovalItemEntity): Promise<void> {
    await announce(this.bus, this.log, {
      channel: Channel.Approvals,
      event_type: type,
      payload: { approval: toApproval(row) },
    });
  }
}
