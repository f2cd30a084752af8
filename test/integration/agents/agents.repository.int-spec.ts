import { AgentEntity, AgentLifecycleEventEntity } from '@app/persistence';
import { UnitOfWork } from '@app/platform';
import { agentEventRow, agentRow, type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { toAgentConfig, toAgentConfigFromRow } from '../../../apps/api/src/modules/agents/agents.mapper';
import { AgentsRepository } from '../../../apps/api/src/modules/agents/agents.repository';

describe.each(testBackends())('AgentsRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: AgentsRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new AgentsRepository(store.database);
  });

  beforeEach(() => store.clear(AgentLifecycleEventEntity, AgentEntity));

  afterAll(() => store?.close());

  it('should read an agent back whole by id and by its name in any case', async () => {
    const ada = agentRow({
      name: 'Ada Lovelace',
      personality: { traits: ['curious'], openness: 0.9 },
      settings: { tools: ['read_file'] },
      budgetLimitMonthly: 12.5,
    });
    await repo.insert(ada);

    expect(await repo.findByRef(ada.id)).toEqual(ada);
    expect(await repo.findByRef('ADA LOVELACE')).toEqual(ada);
    expect(await repo.findByName('  ada lovelace ')).toEqual(ada);
    expect(await repo.findByRef('Grace Hopper')).toBeNull();
  });

  it('should answer the agent whose id is the reference before one whose name is the same text', async () => {
    const ada = agentRow({ id: 'agent-1', name: 'Ada Lovelace' });
    const named = agentRow({ id: 'agent-2', name: 'agent-1' });
    await repo.insert(ada);
    await repo.insert(named);

    expect((await repo.findByRef('agent-1'))?.id).toBe('agent-1');
    expect((await repo.findByRef(' AGENT-1 '))?.id).toBe('agent-2');
  });

  it('should refuse a second agent whose name differs only in case', async () => {
    await repo.insert(agentRow({ name: 'Ada Lovelace' }));

    await expect(repo.insert(agentRow({ id: 'agent-2', name: 'ADA LOVELACE' }))).rejects.toThrow();
    expect(await repo.count()).toBe(1);
  });

  it('should map a raw list row to exactly what the stored entity maps to', async () => {
    await repo.insert(
      agentRow({ name: 'Ada', position: 0, budgetLimitMonthly: 12.5, settings: { model: { temperature: 0.2 } } }),
    );
    await repo.insert(
      agentRow({ name: 'Grace', position: 1, budgetLimitMonthly: null, personality: { traits: ['calm'] } }),
    );

    const page = await repo.page({ offset: 0, limit: 10 });
    const stored = await Promise.all(['Ada', 'Grace'].map((name) => repo.findByName(name)));

    expect(JSON.stringify(page.items.map((row) => toAgentConfigFromRow(row)))).toBe(
      JSON.stringify(stored.map((row) => toAgentConfig(row as AgentEntity))),
    );
  });

  it('should page the roster in position order and count heads per department', async () => {
    const names = ['Ada', 'Grace', 'Alan', 'Barbara'];
    for (const [i, name] of names.entries()) {
      await repo.insert(agentRow({ name, position: names.length - i, department: i < 3 ? 'engineering' : 'design' }));
    }

    const page = await repo.page({ offset: 1, limit: 2 });
    const heads = await repo.countByDepartment();

    expect(page.total).toBe(4);
    expect(page.items.map((a) => a.name)).toEqual(['Alan', 'Grace']);
    expect(heads).toEqual(
      new Map([
        ['engineering', 3],
        ['design', 1],
      ]),
    );
    expect(await repo.countByDepartment('design')).toEqual(new Map([['design', 1]]));
    expect((await repo.findByDepartment('engineering')).map((a) => a.name)).toEqual(['Alan', 'Grace', 'Ada']);
    expect(await repo.nextPosition()).toBe(5);
    expect(await repo.namesInUse()).toEqual(new Set(['ada', 'grace', 'alan', 'barbara']));
  });

  it('should apply an update and move its updated_at forward', async () => {
    const ada = agentRow({ updatedAt: new Date('2020-01-01T00:00:00.000Z') });
    await repo.insert(ada);

    await repo.update(ada.id, { status: 'on_leave', modelProvider: 'test-provider', modelId: 'medium-model' });

    const saved = await repo.findByRef(ada.id);
    expect(saved).toMatchObject({ status: 'on_leave', modelProvider: 'test-provider', modelId: 'medium-model' });
    expect(saved?.updatedAt.getTime()).toBeGreaterThan(ada.updatedAt.getTime());
  });

  it('should bump the version on every write, and write at a version only while the row is still at it', async () => {
    const ada = agentRow({ settings: { tools: { access_level: 'standard' } } });
    await repo.insert(ada);

    await repo.update(ada.id, { status: 'on_leave' });
    expect((await repo.findByRef(ada.id))?.version).toBe(2);

    const settings = { tools: { access_level: 'elevated' }, memory: { type: 'none' } };
    expect(await repo.updateAtVersion(ada.id, 1, { status: 'active' })).toBe(false);
    expect(await repo.updateAtVersion(ada.id, 2, { status: 'active', settings, budgetLimitMonthly: 7.5 })).toBe(true);
    expect(await repo.updateAtVersion(ada.id, 2, { status: 'on_leave' })).toBe(false);
    expect(await repo.updateAtVersion('agent-nobody', 3, { status: 'on_leave' })).toBe(false);

    expect(await repo.findByRef(ada.id)).toMatchObject({
      status: 'active',
      settings,
      budgetLimitMonthly: 7.5,
      version: 3,
    });
  });

  it('should write at a version inside a transaction, and roll it back with it', async () => {
    const ada = agentRow();
    await repo.insert(ada);

    await expect(
      new UnitOfWork(store.database).run(async (tx) => {
        expect(await repo.updateAtVersion(ada.id, 1, { name: 'Ada King', nameKey: 'ada king' }, tx)).toBe(true);
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');

    expect(await repo.findByRef(ada.id)).toMatchObject({ name: ada.name, version: 1 });
  });

  it("should tell when an agent's newest career event happened", async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute));
    await repo.insertEvents([
      agentEventRow({ id: 'e1', timestamp: at(10) }),
      agentEventRow({ id: 'e2', eventType: 'status_changed', timestamp: at(40) }),
      agentEventRow({ id: 'e3', agentId: 'agent-other', timestamp: at(50) }),
    ]);

    expect(await repo.lastEventAt('agent-ada-lovelace')).toEqual(at(40));
    expect(await repo.lastEventAt('agent-nobody')).toBeNull();
  });

  it("should read an agent's career oldest first, only the asked event types", async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 2, 10, minute));
    await repo.insertEvents([
      agentEventRow({ id: 'e3', eventType: 'promoted', timestamp: at(30), metadata: { to: 'senior' } }),
      agentEventRow({ id: 'e1', eventType: 'hired', timestamp: at(10) }),
      agentEventRow({ id: 'e2', eventType: 'status_changed', timestamp: at(20) }),
      agentEventRow({ id: 'e4', agentId: 'agent-other', eventType: 'hired', timestamp: at(5) }),
    ]);

    const career = await repo.history('agent-ada-lovelace', ['hired', 'promoted']);
    const recent = await repo.newestLifecycle({ since: at(15), agentId: 'agent-ada-lovelace' }, 10);
    const promotions = { since: null, agentId: 'agent-ada-lovelace', eventType: 'promoted' };

    expect(career.map((e) => e.id)).toEqual(['e1', 'e3']);
    expect(career[1].metadata).toEqual({ to: 'senior' });
    expect(recent.map((e) => e.id)).toEqual(['e3', 'e2']);
    expect(await repo.countLifecycle({ since: at(15), agentId: 'agent-ada-lovelace' }, 10)).toBe(2);
    expect((await repo.newestLifecycle(promotions, 10)).map((e) => e.id)).toEqual(['e3']);
    expect(await repo.countLifecycle(promotions, 10)).toBe(1);
    expect(await repo.countLifecycle({ since: null }, 3)).toBe(3); // counting stops at the cap
  });

  it('should name the agents that use a provider, sorted', async () => {
    await repo.insert(agentRow({ id: 'agent-grace', name: 'Grace', modelProvider: 'alpha' }));
    await repo.insert(agentRow({ id: 'agent-ada', name: 'Ada', modelProvider: 'alpha' }));
    await repo.insert(agentRow({ id: 'agent-alan', name: 'Alan', modelProvider: 'beta' }));

    expect(await repo.namesUsingProvider('alpha')).toEqual(['Ada', 'Grace']);
    expect(await repo.namesUsingProvider('gamma')).toEqual([]);
  });

  it('should clear the roster and its career log in one transaction', async () => {
    await repo.insert(agentRow({ id: 'agent-ada', name: 'Ada' }));
    await repo.insert(agentRow({ id: 'agent-grace', name: 'Grace' }));
    await repo.insertEvents([agentEventRow({ agentId: 'agent-ada' })]);

    await new UnitOfWork(store.database).run((tx) => repo.deleteAll(tx));

    expect(await repo.count()).toBe(0);
    expect(await repo.newestLifecycle({ since: null }, 10)).toEqual([]);
    expect(await repo.countLifecycle({ since: null }, 10)).toBe(0);
  });
});
