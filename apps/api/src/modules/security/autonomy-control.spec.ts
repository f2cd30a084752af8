import type { AgentEntity, AutonomyDowngradeEntity } from '@app/persistence';
import { agentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { CompanyService } from '../company';
import { SettingsSnapshot } from '../settings';
import { AutonomyControl } from './autonomy-control';
import { SecurityRepository } from './security.repository';

function build() {
  const unit = makeServiceUnderTest(AutonomyControl);
  const m = {
    sut: unit.sut,
    agents: unit.mock(AgentRoster),
    company: unit.mock(CompanyService),
    repository: unit.mock(SecurityRepository),
    settings: unit.mock(SettingsSnapshot),
  };
  const stored: { agent: AgentEntity } = { agent: agentRow({ id: 'agent-1', name: 'Ada', department: 'engineering' }) };
  const levels: Record<string, string | null> = { engineering: 'supervised', ops: 'full' };
  const downgrades: Record<string, AutonomyDowngradeEntity | null> = {};
  const order: string[] = [];
  m.agents.findByRef.mockImplementation(async () => {
    order.push('agent');
    await Promise.resolve();
    order.push('agent read');
    return stored.agent;
  });
  m.company.departmentAutonomy.mockImplementation((name: string) => {
    order.push(`department ${name}`);
    return Promise.resolve(levels[name] ?? null);
  });
  m.repository.findDowngrade.mockImplementation((id: string) => {
    order.push(`downgrade ${id}`);
    return Promise.resolve(downgrades[id] ?? null);
  });
  m.settings.value.mockReturnValue('semi');
  return { ...m, stored, downgrades, order };
}

describe(AutonomyControl.name, () => {
  it('reads an agent asked about before, its downgrade and its department side by side', async () => {
    const m = build();
    await m.sut.stateOf('Ada');
    m.order.length = 0;

    const state = await m.sut.stateOf('Ada');

    expect(state).toMatchObject({ level: 'supervised', source: 'department', departmentLevel: 'supervised' });
    // Both further reads start before the agent's row is in.
    expect(m.order.indexOf('downgrade agent-1')).toBeLessThan(m.order.indexOf('agent read'));
    expect(m.order.indexOf('department engineering')).toBeLessThan(m.order.indexOf('agent read'));
    expect(m.order.filter((step) => step.startsWith('department'))).toHaveLength(1);
  });

  it("reads the new department's level when the agent moved since it was last asked about", async () => {
    const m = build();
    await m.sut.stateOf('Ada');
    m.stored.agent = { ...m.stored.agent, department: 'ops', level: 'senior' };
    m.order.length = 0;

    const state = await m.sut.stateOf('Ada');

    expect(state).toMatchObject({ level: 'full', departmentLevel: 'full' });
    expect(m.order.filter((step) => step.startsWith('department'))).toEqual([
      'department engineering',
      'department ops',
    ]);
  });

  it('reads the downgrade of the agent that now holds the name, not of the one it guessed', async () => {
    const m = build();
    await m.sut.stateOf('Ada');
    m.stored.agent = { ...m.stored.agent, id: 'agent-2' };
    m.downgrades['agent-2'] = { agentId: 'agent-2', currentLevel: 'locked', reason: 'security_incident' } as never;

    const state = await m.sut.stateOf('Ada');

    expect(state).toMatchObject({ level: 'locked', source: 'downgrade' });
    expect(m.order).toContain('downgrade agent-2');
  });

  it('does not read the department of an agent with a level of its own, nor after it inherits again', async () => {
    const m = build();
    m.stored.agent = { ...m.stored.agent, autonomyLevel: 'semi' };
    await m.sut.stateOf('Ada');
    await m.sut.stateOf('Ada');
    expect(m.order.some((step) => step.startsWith('department'))).toBe(false);

    m.stored.agent = { ...m.stored.agent, autonomyLevel: null };
    const state = await m.sut.stateOf('Ada');

    expect(state).toMatchObject({ level: 'supervised', source: 'department' });
  });

  it('forgets an agent that is gone, and answers 3013', async () => {
    const m = build();
    await m.sut.stateOf('Ada');
    m.agents.findByRef.mockResolvedValue(null);

    await expect(m.sut.stateOf('Ada')).rejects.toMatchObject({ code: 3013 });
    await expect(m.sut.stateOf('Ada')).rejects.toMatchObject({ code: 3013 });
    expect(m.repository.findDowngrade).toHaveBeenCalledTimes(2); // the first ask, and the guess once
  });
});
