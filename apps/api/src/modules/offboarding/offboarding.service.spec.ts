import { ErrorCode, HumanRole } from '@app/domain';
import { actorContext, agentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { AuditTrail } from '../audit';
import { OffboardAgentUseCase } from './offboard-agent.use-case';
import { offboardingRecord } from './offboarding.fixtures';
import { OffboardingRepository } from './offboarding.repository';
import { OffboardingService } from './offboarding.service';

const ADA = agentRow({ id: 'agent-ada', name: 'Ada', department: 'engineering' });
const CEO = actorContext({ username: 'ceo' });

function build() {
  const unit = makeServiceUnderTest(OffboardingService);
  const m = {
    sut: unit.sut,
    records: unit.mock(OffboardingRepository),
    roster: unit.mock(AgentRoster),
    pipeline: unit.mock(OffboardAgentUseCase),
    audit: unit.mock(AuditTrail),
  };
  m.roster.findByRef.mockImplementation((ref) => Promise.resolve(ref.toLowerCase() === 'ada' ? ADA : null));
  m.records.findByAgent.mockResolvedValue(null);
  m.records.insert.mockResolvedValue(true);
  m.audit.record.mockResolvedValue(null);
  m.pipeline.execute.mockImplementation((id) =>
    Promise.resolve(offboardingRecord({ id, step: 'offboarded', completedAt: new Date('2026-01-02T03:05:00Z') })),
  );
  return m;
}

describe(OffboardingService.name, () => {
  it('should store the decision with ids chosen for what its steps write, audit it, and run the pipeline', async () => {
    const m = build();

    const record = await m.sut.fire(CEO, 'ada', { reason: 'budget', details: '  Over budget.  ' });

    const stored = m.records.insert.mock.calls[0][0];
    expect(stored).toMatchObject({
      agentId: 'agent-ada',
      agentName: 'Ada',
      department: 'engineering',
      reason: 'budget',
      details: 'Over budget.',
      requestedBy: 'ceo',
      step: 'requested',
      version: 1,
      completedAt: null,
    });
    expect(new Set([stored.id, stored.firedEventId, stored.offboardedEventId, stored.teamMessageId]).size).toBe(4);
    expect(m.audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ actor: 'ceo', action: 'agent.fired', target: 'agent:Ada', outcome: 'success' }),
    );
    expect(m.pipeline.execute).toHaveBeenCalledWith(stored.id);
    expect(record).toMatchObject({ firing_request_id: stored.id, completed_at: '2026-01-02T03:05:00.000Z' });
  });

  it('should let a manager fire an agent of their department only, and audit the refusal', async () => {
    const m = build();
    const outsider = actorContext({ username: 'pat', role: HumanRole.Manager, department: 'product' });
    await expect(m.sut.fire(outsider, 'Ada', { reason: 'manual' })).rejects.toMatchObject({
      code: ErrorCode.Forbidden,
    });
    const nowhere = actorContext({ username: 'nia', role: HumanRole.Manager, department: null });
    await expect(m.sut.fire(nowhere, 'Ada', { reason: 'manual' })).rejects.toMatchObject({ code: ErrorCode.Forbidden });
    expect(m.records.insert).not.toHaveBeenCalled();
    expect(m.audit.record).toHaveBeenCalledWith(expect.objectContaining({ actor: 'pat', outcome: 'denied' }));

    const head = actorContext({ username: 'eve', role: HumanRole.Manager, department: 'engineering' });
    await expect(m.sut.fire(head, 'Ada', { reason: 'manual' })).resolves.toMatchObject({ requested_by: 'ceo' });
    expect(m.records.insert).toHaveBeenCalledWith(expect.objectContaining({ requestedBy: 'eve' }));
  });

  it('should answer 4099 to a second fire, to a terminated agent, and to the loser of two at once', async () => {
    const m = build();
    m.records.findByAgent.mockResolvedValueOnce(offboardingRecord());
    await expect(m.sut.fire(CEO, 'Ada', { reason: 'manual' })).rejects.toMatchObject({
      code: ErrorCode.AgentAlreadyFired,
    });
    m.roster.findByRef.mockResolvedValueOnce({ ...ADA, status: 'terminated' });
    await expect(m.sut.fire(CEO, 'Ada', { reason: 'manual' })).rejects.toMatchObject({
      code: ErrorCode.AgentAlreadyFired,
    });
    m.records.insert.mockResolvedValueOnce(false);
    await expect(m.sut.fire(CEO, 'Ada', { reason: 'manual' })).rejects.toMatchObject({
      code: ErrorCode.AgentAlreadyFired,
    });
    expect(m.pipeline.execute).not.toHaveBeenCalled();
    expect(m.audit.record).not.toHaveBeenCalled();
  });

  it('should answer 3013 for an unknown agent and 3099 for an agent never fired', async () => {
    const m = build();
    await expect(m.sut.fire(CEO, 'Zed', { reason: 'manual' })).rejects.toMatchObject({ code: ErrorCode.AgentNotFound });
    await expect(m.sut.offboarding('Zed')).rejects.toMatchObject({ code: ErrorCode.AgentNotFound });
    await expect(m.sut.offboarding('Ada')).rejects.toMatchObject({ code: ErrorCode.OffboardingNotFound });
    m.records.findByAgent.mockResolvedValue(offboardingRecord());
    await expect(m.sut.offboarding('Ada')).resolves.toMatchObject({
      firing_request_id: 'fire-1',
      completed_at: null,
    });
  });

  it('should resume every unfinished pipeline at startup, one failure not stopping the others', async () => {
    const m = build();
    m.records.unfinished.mockResolvedValue([offboardingRecord({ id: 'a' }), offboardingRecord({ id: 'b' })]);
    m.pipeline.execute.mockRejectedValueOnce(new Error('database away'));

    await expect(m.sut.resumeUnfinished()).resolves.toBeUndefined();

    expect(m.pipeline.execute.mock.calls.map(([id]) => id)).toEqual(['a', 'b']);
  });
});
