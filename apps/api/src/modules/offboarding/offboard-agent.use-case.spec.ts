import { Channel, OFFBOARDING_STEPS } from '@app/domain';
import type { OffboardingRecordEntity, TaskHandoverEntry } from '@app/persistence';
import { DistributedLock, EventBus } from '@app/platform';
import { agentRow, makeServiceUnderTest, recordPublished } from '@app/testing';

import { AgentRoster } from '../agents';
import { AuditTrail } from '../audit';
import { MemoryService } from '../memory';
import { ChannelDirectory, MessagePosting } from '../messages';
import { OffboardAgentUseCase } from './offboard-agent.use-case';
import { handoverEntry, offboardingRecord } from './offboarding.fixtures';
import { OffboardingRepository } from './offboarding.repository';
import { TaskHandover } from './task-handover';

const ADA = agentRow({ id: 'agent-ada', name: 'Ada', role: 'Developer', department: 'engineering' });

/** The use case over a record kept in memory (every update a compare-and-set on its version). */
function build(start: OffboardingRecordEntity, channels: string[] = ['#engineering', '#all-hands']) {
  const unit = makeServiceUnderTest(OffboardAgentUseCase);
  const m = {
    sut: unit.sut,
    records: unit.mock(OffboardingRepository),
    handover: unit.mock(TaskHandover),
    roster: unit.mock(AgentRoster),
    posting: unit.mock(MessagePosting),
    channels: unit.mock(ChannelDirectory),
    audit: unit.mock(AuditTrail),
    lock: unit.mock(DistributedLock),
    memory: unit.mock(MemoryService),
    published: recordPublished(unit.mock(EventBus)),
  };
  let row = structuredClone(start);
  m.records.findById.mockImplementation(() => Promise.resolve(structuredClone(row)));
  m.records.update.mockImplementation((base, changes) => {
    if (base.version !== row.version) {
      return Promise.resolve(null);
    }
    row = { ...row, ...structuredClone(changes), version: row.version + 1 };
    return Promise.resolve(structuredClone(row));
  });
  m.lock.runExclusive.mockImplementation((_name, work) => work());
  // No memory backend and nothing stored: the archive step is skipped.
  m.memory.archiveAgent.mockResolvedValue(null);
  m.roster.findByRef.mockResolvedValue(ADA);
  m.roster.terminate.mockResolvedValue({ ...ADA, status: 'terminated' });
  m.roster.recordCareerEvent.mockResolvedValue();
  m.roster.render.mockImplementation((agent) => ({ id: agent.id }) as never);
  m.handover.plan.mockResolvedValue([]);
  m.handover.awaitRuns.mockResolvedValue({ stopped: 0, late: [] });
  m.handover.chooseSuccessors.mockImplementation((_record, entries) => Promise.resolve([...entries]));
  m.handover.reassign.mockImplementation((_record, entry) => Promise.resolve(entry));
  m.channels.find.mockImplementation((name) =>
    Promise.resolve(channels.includes(name) ? { name, type: 'topic', subscribers: [], createdAt: new Date() } : null),
  );
  m.posting.post.mockResolvedValue({} as never);
  m.audit.record.mockResolvedValue(null);
  return { ...m, stored: () => row };
}

describe(OffboardAgentUseCase.name, () => {
  it('should run every step once, in order, skip the memory archive and end the record', async () => {
    const m = build(offboardingRecord());

    const done = await m.sut.execute('fire-1');

    expect(done).toMatchObject({ step: 'offboarded', teamChannel: '#engineering', memoryArchiveId: null });
    expect(done.completedAt).not.toBeNull();
    expect(done.stepLog.map((entry) => [entry.step, entry.outcome])).toEqual(
      OFFBOARDING_STEPS.map((step) => [step, step === 'memory_archived' ? 'skipped' : 'done']),
    );
    expect(done.stepLog[4].detail).toBe('skipped: no memory backend');
    expect(m.roster.terminate).toHaveBeenCalledWith(ADA);
    expect(m.roster.recordCareerEvent.mock.calls.map(([e]) => [e.id, e.type, e.initiatedBy])).toEqual([
      ['event-fired', 'fired', 'ceo'],
      ['event-offboarded', 'offboarded', 'ceo'],
    ]);
    expect(m.roster.recordCareerEvent.mock.calls[0][0].details).toBe('Fired (performance): Missed deadlines.');
    expect(m.posting.post).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'message-1', from: 'system', type: 'hr_notification', channel: '#engineering' }),
    );
    expect(m.published.map((e) => [e.channel, e.event_type])).toEqual([
      [Channel.Agents, 'agent.fired'],
      [Channel.Agents, 'agent.offboarded'],
    ]);
    expect(m.audit.record).toHaveBeenCalledWith(expect.objectContaining({ action: 'agent.offboarded', actor: 'ceo' }));
    expect(m.lock.runExclusive).toHaveBeenCalledWith('offboarding:fire-1', expect.any(Function));
  });

  it('should tell the whole company in #all-hands when the department has no channel of its own', async () => {
    const m = build(offboardingRecord({ department: 'quality_assurance' }), ['#all-hands']);

    await m.sut.execute('fire-1');

    expect(m.posting.post).toHaveBeenCalledWith(expect.objectContaining({ channel: '#all-hands' }));
    expect(m.stored().teamChannel).toBe('#all-hands');
  });

  it('should resume after the last step recorded, stop where asked, and finish on the next run', async () => {
    const m = build(offboardingRecord({ step: 'tasks_reassigned', version: 5 }));

    const halfway = await m.sut.execute('fire-1', { until: 'team_notified' });

    expect(halfway.step).toBe('team_notified');
    expect(halfway.stepLog.map((entry) => entry.step)).toEqual(['memory_archived', 'team_notified']);
    expect(m.roster.terminate).not.toHaveBeenCalled();
    expect(m.handover.plan).not.toHaveBeenCalled();
    expect(m.published).toEqual([]);

    const done = await m.sut.execute('fire-1');
    expect(done.stepLog.map((entry) => entry.step)).toEqual(['memory_archived', 'team_notified', 'offboarded']);
    expect(m.posting.post).toHaveBeenCalledTimes(1);
    expect(await m.sut.execute('fire-1')).toMatchObject({ step: 'offboarded', version: done.version });
  });

  it('should save the list of tasks before it moves any, then record what became of each', async () => {
    const m = build(offboardingRecord({ step: 'terminated', version: 2 }));
    const planned = [handoverEntry({ taskId: 'task-1' }), handoverEntry({ taskId: 'task-2', fromStatus: 'assigned' })];
    m.handover.plan.mockResolvedValue(planned);
    const saved: TaskHandoverEntry[][] = [];
    m.handover.interrupt.mockImplementation((record, entry) => {
      saved.push(record.handover);
      return Promise.resolve({ ...entry, outcome: entry.taskId === 'task-1' ? 'interrupted' : 'moved' });
    });

    const record = await m.sut.execute('fire-1', { until: 'tasks_interrupted' });

    expect(saved[0].map((entry) => [entry.taskId, entry.outcome])).toEqual([
      ['task-1', 'planned'],
      ['task-2', 'planned'],
    ]);
    expect(m.records.update.mock.invocationCallOrder[0]).toBeLessThan(m.handover.interrupt.mock.invocationCallOrder[0]);
    expect(record.handover.map((entry) => entry.outcome)).toEqual(['interrupted', 'moved']);
    expect(record.stepLog[0].detail).toBe(
      '1 task(s) interrupted, unassigned and raised one priority step, 1 moved by someone else first',
    );
  });

  it('should save the chosen successors before it hands any task over', async () => {
    const interrupted = handoverEntry({ outcome: 'interrupted' });
    const m = build(offboardingRecord({ step: 'runs_stopped', version: 4, handover: [interrupted] }));
    m.handover.chooseSuccessors.mockResolvedValue([{ ...interrupted, toAgentId: 'agent-bob', toAgentName: 'Bob' }]);
    m.handover.reassign.mockImplementation((record, entry) =>
      Promise.resolve({ ...entry, outcome: record.handover[0].toAgentId === 'agent-bob' ? 'reassigned' : 'moved' }),
    );

    const record = await m.sut.execute('fire-1', { until: 'tasks_reassigned' });

    expect(record.handover).toEqual([expect.objectContaining({ outcome: 'reassigned', toAgentName: 'Bob' })]);
    expect(record.stepLog[0].detail).toBe(
      '1 task(s) handed over (task-1 to Bob), 0 left unassigned (no other active agent in engineering)',
    );
  });

  it('should report runs still going after the wait, and hand their tasks over all the same', async () => {
    const m = build(offboardingRecord({ step: 'tasks_interrupted', version: 3 }));
    m.handover.awaitRuns.mockResolvedValue({ stopped: 1, late: ['task-9'] });

    const record = await m.sut.execute('fire-1', { until: 'runs_stopped' });

    expect(record.stepLog[0].detail).toBe(
      '1 run(s) ended; still running after the wait (handed over all the same): task-9',
    );
  });

  it('should go on from the stored record when another process recorded a step first', async () => {
    const m = build(offboardingRecord({ step: 'memory_archived', version: 6 }));
    const theirs = offboardingRecord({ step: 'team_notified', version: 7, teamChannel: '#engineering' });
    m.records.update.mockResolvedValueOnce(null);
    m.records.findById.mockResolvedValueOnce(offboardingRecord({ step: 'memory_archived', version: 6 }));
    m.records.findById.mockResolvedValueOnce(theirs);
    m.records.update.mockResolvedValueOnce({ ...theirs, step: 'offboarded', version: 8, completedAt: new Date() });

    const record = await m.sut.execute('fire-1');

    expect(record).toMatchObject({ step: 'offboarded', version: 8 });
    expect(m.records.update.mock.calls[1][0]).toBe(theirs);
  });

  it('should skip terminating an agent no longer on the roster and still finish', async () => {
    const m = build(offboardingRecord());
    m.roster.findByRef.mockResolvedValue(null);

    const record = await m.sut.execute('fire-1');

    expect(record.stepLog[0]).toMatchObject({ outcome: 'skipped', detail: 'the agent is no longer on the roster' });
    expect(m.roster.terminate).not.toHaveBeenCalled();
    expect(m.roster.recordCareerEvent).not.toHaveBeenCalled();
    expect(record.step).toBe('offboarded');
  });

  it('should answer 3099 for a record that does not exist', async () => {
    const m = build(offboardingRecord());
    m.records.findById.mockResolvedValue(null);

    await expect(m.sut.execute('nope')).rejects.toMatchObject({ code: 3099 });
  });
});
