import { randomUUID } from 'node:crypto';

import { SecurityRecordEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { SecurityRepository } from '../../../apps/api/src/modules/security/security.repository';

describe.each(testBackends())('SecurityRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: SecurityRepository;
  const agentId = 'agent-ada-lovelace';
  const at = (minutes: number) => new Date(Date.UTC(2026, 5, 1, 12, minutes, 0, 250));
  const record = (kind: string, minutes: number, agent = agentId): SecurityRecordEntity => ({
    id: randomUUID(),
    kind,
    agentId: agent,
    taskId: null,
    toolName: kind === 'tool_call' ? 'list_files' : null,
    actionType: null,
    verdict: 'allow',
    enforced: 'allow',
    riskLevel: 'low',
    reason: `${kind} at ${minutes}`,
    mode: 'active',
    finding: null,
    errorCode: null,
    actor: 'system',
    createdAt: at(minutes),
  });

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new SecurityRepository(store.database);
  });

  beforeEach(() => store.clear(SecurityRecordEntity));

  afterAll(() => store?.close());

  it('should answer null for a kind the agent has no record of, however many others it has', async () => {
    for (let minute = 0; minute < 20; minute++) {
      await repo.insertRecord(record('tool_call', minute));
    }

    expect(await repo.lastRecordAt(agentId, 'autonomy_change')).toBeNull();
  });

  it("should answer when the agent's newest record of the kind was written, and only that agent's", async () => {
    await repo.insertRecord(record('autonomy_change', 1));
    await repo.insertRecord(record('autonomy_change', 5));
    await repo.insertRecord(record('tool_call', 9));
    await repo.insertRecord(record('autonomy_change', 12, 'agent-grace-hopper'));

    expect(await repo.lastRecordAt(agentId, 'autonomy_change')).toEqual(at(5));
    expect(await repo.lastRecordAt(agentId, 'tool_call')).toEqual(at(9));
    expect(await repo.lastRecordAt('agent-grace-hopper', 'autonomy_change')).toEqual(at(12));
  });
});
