import type { ApprovalItemEntity } from '@app/persistence';
import { EventBus } from '@app/platform';
import { makeServiceUnderTest } from '@app/testing';

import { AuditTrail } from '../audit';
import { RunParking } from '../engine';
import { ApprovalOutcomes } from './approval-outcomes';
import { ApprovalPolicy } from './approval-policy';

const DECIDED: ApprovalItemEntity = {
  id: 'a-1',
  actionType: 'code:write',
  title: 'Write',
  description: '',
  requestedBy: 'agent-1',
  riskLevel: 'medium',
  status: 'approved',
  taskId: 't-1',
  department: 'engineering',
  metadata: {},
  decidedBy: 'ceo',
  decisionReason: null,
  onTimeout: null,
  escalationStep: -1,
  assignedRole: null,
  version: 2,
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  decidedAt: new Date('2026-01-01T00:01:00.000Z'),
  expiresAt: null,
};

describe(ApprovalOutcomes.name, () => {
  it('should announce a decision, hand it to the parked run, then write the audit row', async () => {
    const { sut, mock } = makeServiceUnderTest(ApprovalOutcomes);
    const steps: string[] = [];
    mock(EventBus).publish.mockImplementation((event) => {
      steps.push(`publish ${event.event_type}`);
      return Promise.resolve();
    });
    mock(RunParking).decide.mockImplementation((decision) => {
      steps.push(`resume ${decision.approvalId} ${decision.approved}`);
      return Promise.resolve(true);
    });
    mock(AuditTrail).record.mockImplementation((event) => {
      steps.push(`audit ${event.action} ${event.actor}`);
      return Promise.resolve(null);
    });
    mock(ApprovalPolicy).rejection.mockReturnValue('continue');

    await sut.settled(DECIDED);

    expect(steps).toEqual(['publish approval.decided', 'resume a-1 true', 'audit approval.decided ceo']);
  });
});
