import { DatabaseService, DistributedLock } from '@app/platform';
import { agentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster } from '../agents';
import { TrustControl } from './trust-control';
import { TrustSweep } from './trust-sweep';

const NOW = new Date('2026-06-01T00:00:00Z');

function build(strategy: string, state = 'ready') {
  const unit = makeServiceUnderTest(TrustSweep);
  const m = {
    sut: unit.sut,
    agents: unit.mock(AgentRoster),
    trust: unit.mock(TrustControl),
    database: unit.mock(DatabaseService),
    lock: unit.mock(DistributedLock),
  };
  Object.defineProperty(m.database, 'state', { value: state });
  m.trust.strategy.mockReturnValue(strategy as never);
  m.lock.tryRunExclusive.mockImplementation(async (_name, fn) => ({ ran: true, value: await fn() }));
  m.agents.all.mockResolvedValue([
    agentRow({ id: 'a1' }),
    agentRow({ id: 'a2', status: 'terminated' }),
    agentRow({ id: 'a3' }),
  ]);
  m.trust.evaluate.mockResolvedValue({ kind: 'keep', score: null, reason: '' });
  return m;
}

describe(TrustSweep.name, () => {
  it('should evaluate every active agent under the milestone strategy, one failure costing that agent only', async () => {
    const m = build('milestone');
    m.trust.evaluate.mockRejectedValueOnce(new Error('gone'));
    await expect(m.sut.run(NOW)).resolves.toBe(2);
    expect(m.trust.evaluate.mock.calls.map(([agent, at]) => [agent.id, at])).toEqual([
      ['a1', NOW],
      ['a3', NOW],
    ]);
  });

  it.each([
    ['another strategy', 'weighted', 'ready'],
    ['no database yet', 'milestone', 'connecting'],
  ])('should do nothing with %s', async (_label, strategy, state) => {
    const m = build(strategy, state);
    await expect(m.sut.run(NOW)).resolves.toBe(0);
    expect(m.trust.evaluate).not.toHaveBeenCalled();
  });
});
