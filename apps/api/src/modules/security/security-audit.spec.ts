import type { Transaction } from '@app/platform';
import { makeServiceUnderTest } from '@app/testing';

import { AuditTrail } from '../audit';
import { SecurityAudit, type SecurityRecordInput } from './security-audit';
import { SecurityRepository } from './security.repository';

const CALL: SecurityRecordInput = {
  kind: 'tool_call',
  agentId: 'agent-1',
  taskId: 'task-1',
  toolName: 'write_file',
  actionType: 'code:write',
  verdict: 'allow',
  enforced: 'allow',
  riskLevel: 'medium',
  reason: 'allowed',
  mode: 'active',
  finding: null,
  errorCode: null,
  actor: 'system',
};

function build() {
  const unit = makeServiceUnderTest(SecurityAudit);
  unit.mock(SecurityRepository).insertRecord.mockResolvedValue();
  const trail = unit.mock(AuditTrail);
  trail.record.mockResolvedValue(null);
  return { sut: unit.sut, trail };
}

describe(SecurityAudit.name, () => {
  it('should keep a plain allow out of the audit trail and put a deny and an escalation in it', async () => {
    const { sut, trail } = build();

    await sut.record(CALL);
    expect(trail.record).not.toHaveBeenCalled();

    await sut.record({ ...CALL, verdict: 'deny', enforced: 'deny', riskLevel: 'critical' });
    await sut.record({ ...CALL, verdict: 'escalate', enforced: 'escalate' });

    expect(trail.record.mock.calls.map(([event]) => [event.action, event.outcome, event.target])).toEqual([
      ['security.tool_call', 'denied', 'task:task-1'],
      ['security.tool_call', 'success', 'task:task-1'],
    ]);
    expect(trail.record.mock.calls[0][0].details).toMatchObject({ verdict: 'deny', risk_level: 'critical' });
  });

  it("should record an autonomy change without waiting on the trail inside the caller's transaction", async () => {
    const { sut, trail } = build();
    trail.record.mockReturnValue(new Promise(() => undefined));

    await sut.record({ ...CALL, kind: 'autonomy_change', taskId: null }, {} as Transaction);

    expect(trail.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'security.autonomy_change', target: 'agent:agent-1' }),
    );
  });
});
