import { AgentLifecycleEventEntity, OffboardingRecordEntity } from '@app/persistence';
import { agentEventRow, type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { AgentsRepository } from '../../../apps/api/src/modules/agents/agents.repository';
import { OffboardingRepository } from '../../../apps/api/src/modules/offboarding/offboarding.repository';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function record(
  id: string,
  agentId: string,
  overrides: Partial<OffboardingRecordEntity> = {},
): OffboardingRecordEntity {
  return {
    id,
    agentId,
    agentName: `Agent ${agentId}`,
    department: 'engineering',
    reason: 'performance',
    details: 'Missed every deadline.',
    requestedBy: 'ceo',
    step: 'requested',
    version: 1,
    stepLog: [],
    handover: [],
    firedEventId: `${id}-fired`,
    offboardedEventId: `${id}-off`,
    teamMessageId: `${id}-msg`,
    teamChannel: null,
    memoryArchiveId: null,
    orgMemoriesPromoted: 0,
    startedAt: new Date(T0),
    completedAt: null,
    updatedAt: new Date(T0),
    ...overrides,
  };
}

describe.each(testBackends())('OffboardingRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: OffboardingRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new OffboardingRepository(store.database);
  });

  beforeEach(() => store.clear(OffboardingRecordEntity, AgentLifecycleEventEntity));

  afterAll(() => store?.close());

  it('should store a record once per agent and read it back by id and by agent', async () => {
    expect(await repo.insert(record('r-1', 'agent-1'))).toBe(true);
    expect(await repo.insert(record('r-2', 'agent-1'))).toBe(false);
    expect(await repo.findById('r-1')).toEqual(record('r-1', 'agent-1'));
    expect((await repo.findByAgent('agent-1'))?.id).toBe('r-1');
    expect(await repo.findById('r-2')).toBeNull();
  });

  it('should apply a change at the version read and refuse a second writer of the same version', async () => {
    const base = record('r-1', 'agent-1');
    await repo.insert(base);
    const handover = [
      {
        taskId: 'task-1',
        title: 'Write docs',
        fromStatus: 'in_progress',
        priorityBefore: 'medium',
        priorityAfter: 'high',
        outcome: 'interrupted',
        toAgentId: null,
        toAgentName: null,
      },
    ];
    const stepLog = [{ step: 'terminated', outcome: 'done', at: new Date(T0).toISOString(), detail: 'gone' }];
    const saved = await repo.update(base, { step: 'tasks_interrupted', handover, stepLog });
    expect(saved).toMatchObject({ version: 2, step: 'tasks_interrupted' });
    expect(await repo.update(base, { step: 'runs_stopped' })).toBeNull();
    const stored = await repo.findById('r-1');
    expect(stored).toMatchObject({ version: 2, step: 'tasks_interrupted', handover, stepLog });
  });

  it('should list the unfinished records oldest first, and not the completed ones', async () => {
    await repo.insert(record('r-late', 'agent-2', { startedAt: new Date(T0 + 2000) }));
    await repo.insert(record('r-done', 'agent-3', { step: 'offboarded', completedAt: new Date(T0 + 3000) }));
    await repo.insert(record('r-early', 'agent-1', { startedAt: new Date(T0 + 1000) }));
    expect((await repo.unfinished(10)).map((r) => r.id)).toEqual(['r-early', 'r-late']);
    expect((await repo.unfinished(1)).map((r) => r.id)).toEqual(['r-early']);
  });

  it('should write a career event of a chosen id once, however often it is recorded', async () => {
    const agents = new AgentsRepository(store.database);
    const event = agentEventRow({ id: 'ev-fired', agentId: 'agent-1', eventType: 'fired', details: 'first' });
    await agents.insertEventIfMissing(event);
    await agents.insertEventIfMissing({ ...event, details: 'again' });
    const rows = await store.source.getRepository(AgentLifecycleEventEntity).findBy({ agentId: 'agent-1' });
    expect(rows.map((r) => [r.id, r.details])).toEqual([['ev-fired', 'first']]);
  });
});
