import type { ApprovalGate } from '@app/domain';
import type { ParkedRunEntity } from '@app/persistence';
import { makeServiceUnderTest } from '@app/testing';

import { ParkedRunsRepository } from './parked-runs.repository';
import { type ParkRequest, RunParking } from './run-parking';

const REQUEST: ParkRequest = {
  taskId: 't1',
  agentId: 'a1',
  agentName: 'Ada',
  department: 'engineering',
  provider: 'mock',
  model: 'mock-small',
  messages: [{ role: 'user', content: 'go' }],
  pending: { call: { id: 'c1', name: 'write_file', arguments: { path: 'x' } }, reason: 'risky' },
  turns: 2,
  inputTokens: 10,
  outputTokens: 5,
  hasWorktree: true,
};

function row(overrides: Partial<ParkedRunEntity> = {}): ParkedRunEntity {
  return {
    approvalId: 'ap1',
    taskId: 't1',
    agentId: 'a1',
    provider: 'mock',
    model: 'mock-small',
    messages: [],
    pendingCall: REQUEST.pending.call,
    turns: 2,
    inputTokens: 10,
    outputTokens: 5,
    hasWorktree: true,
    state: 'decided',
    approved: false,
    decisionReason: 'no',
    endRun: false,
    decidedBy: 'ceo',
    resumedBy: null,
    createdAt: new Date(),
    decidedAt: new Date(),
    resumedAt: null,
    ...overrides,
  };
}

describe(RunParking.name, () => {
  it('should refuse to park without a gate', async () => {
    const { sut } = makeServiceUnderTest(RunParking);

    expect(sut.canPark).toBe(false);
    await expect(sut.park(REQUEST)).rejects.toThrow('no approval gate');
  });

  it('should save the run before filing its item under the same id', async () => {
    const { sut, mock } = makeServiceUnderTest(RunParking);
    const order: string[] = [];
    mock(ParkedRunsRepository).insert.mockImplementation((r) => {
      order.push(`saved ${r.approvalId}`);
      return Promise.resolve();
    });
    const gate: ApprovalGate = {
      request: (call) => {
        order.push(`filed ${call.approvalId}`);
        return Promise.resolve();
      },
    };
    sut.registerGate(gate);

    const id = await sut.park(REQUEST);

    expect(order).toEqual([`saved ${id}`, `filed ${id}`]);
    expect(mock(ParkedRunsRepository).insert).toHaveBeenCalledWith(
      expect.objectContaining({ state: 'parked', taskId: 't1', turns: 2, pendingCall: REQUEST.pending.call }),
    );
  });

  it('should forget the saved run when the gate fails', async () => {
    const { sut, mock } = makeServiceUnderTest(RunParking);
    mock(ParkedRunsRepository).insert.mockResolvedValue();
    mock(ParkedRunsRepository).delete.mockResolvedValue();
    sut.registerGate({ request: () => Promise.reject(new Error('store down')) });

    await expect(sut.park(REQUEST)).rejects.toThrow('store down');
    expect(mock(ParkedRunsRepository).delete).toHaveBeenCalledTimes(1);
  });

  it('should notify the dispatcher once per recorded decision and end the run on an end_run refusal', async () => {
    const { sut, mock } = makeServiceUnderTest(RunParking);
    mock(ParkedRunsRepository).decide.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    mock(ParkedRunsRepository).find.mockResolvedValue(row());
    const queued: string[] = [];
    sut.onDecided((run) => queued.push(run.approvalId));
    const decision = {
      approvalId: 'ap1',
      approved: false,
      reason: 'no',
      decidedBy: 'ceo',
      onRefusal: 'end_run' as const,
    };

    await expect(sut.decide(decision)).resolves.toBe(true);
    await expect(sut.decide(decision)).resolves.toBe(false);

    expect(queued).toEqual(['ap1']);
    expect(mock(ParkedRunsRepository).decide).toHaveBeenCalledWith('ap1', {
      approved: false,
      decisionReason: 'no',
      decidedBy: 'ceo',
      endRun: true,
    });
  });

  it('should hand the saved context only to the claim that wins', async () => {
    const { sut, mock } = makeServiceUnderTest(RunParking);
    mock(ParkedRunsRepository).claim.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    mock(ParkedRunsRepository).find.mockResolvedValue(row({ approved: true, endRun: null }));

    const won = await sut.claim('ap1', 'replica-a');
    const lost = await sut.claim('ap1', 'replica-b');

    expect(won).toMatchObject({ approvalId: 'ap1', approved: true, endRun: false, turns: 2, model: 'mock-small' });
    expect(lost).toBeNull();
  });
});
