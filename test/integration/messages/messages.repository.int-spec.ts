import { MessageChannelEntity, MessageEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { toMessageDto, toMessageDtoFromRow } from '../../../apps/api/src/modules/messages/messages.mapper';
import { MessagesRepository } from '../../../apps/api/src/modules/messages/messages.repository';

function message(id: string, channel: string, at: number): MessageEntity {
  return {
    id,
    timestamp: new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + at),
    sender: 'ada',
    recipient: channel,
    type: 'status_report',
    priority: 'normal',
    channel,
    content: `message ${id}`,
    attachments: [{ type: 'artifact', ref: 'artifact-1' }],
    metadata: { task_id: 'task-1', project_id: null, tokens_used: 12, cost_usd: 0.5, extra: [['k', 'v']] },
  };
}

describe.each(testBackends())('MessagesRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: MessagesRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new MessagesRepository(store.database);
  });

  beforeEach(async () => {
    await store.clear(MessageEntity);
    await store.clear(MessageChannelEntity);
  });

  afterAll(() => store?.close());

  it('should read a page as raw rows that map to exactly what a single read maps to', async () => {
    const row = message('m-1', '#engineering', 0);
    await repo.insert(row);
    const { items, total } = await repo.page('#engineering', { offset: 0, limit: 10 });
    expect(total).toBe(1);
    expect(items.map(toMessageDtoFromRow)).toEqual([toMessageDto(row)]);
    const single = await repo.findById('m-1');
    expect(single && toMessageDto(single)).toEqual(toMessageDto(row));
  });

  it('should page newest first, per channel or across all', async () => {
    await repo.insert(message('m-a', '#engineering', 1));
    await repo.insert(message('m-b', '#product', 2));
    await repo.insert(message('m-c', '#engineering', 3));
    const engineering = await repo.page('#engineering', { offset: 0, limit: 10 });
    expect(engineering.items.map((r) => r.id)).toEqual(['m-c', 'm-a']);
    const all = await repo.page(null, { offset: 1, limit: 1 });
    expect([all.items.map((r) => r.id), all.total]).toEqual([['m-b'], 3]);
  });

  it('should prune a channel to its newest messages and leave the other channels alone', async () => {
    for (let i = 0; i < 6; i += 1) {
      await repo.insert(message(`e-${i}`, '#engineering', i));
    }
    await repo.insert(message('p-0', '#product', 0));
    expect(await repo.prune('#engineering', 4)).toBe(2);
    const kept = await repo.page('#engineering', { offset: 0, limit: 10 });
    expect(kept.items.map((r) => r.id)).toEqual(['e-5', 'e-4', 'e-3', 'e-2']);
    expect((await repo.page('#product', { offset: 0, limit: 10 })).total).toBe(1);
    expect(await repo.prune('#engineering', 4)).toBe(0);
  });

  it('should create missing channels and ignore the ones that exist', async () => {
    const at = new Date('2026-01-02T00:00:00.000Z');
    await repo.insertChannelsIfMissing([{ name: '#engineering', type: 'topic', subscribers: [], createdAt: at }]);
    await repo.insertChannelsIfMissing([
      { name: '#engineering', type: 'broadcast', subscribers: ['x'], createdAt: at },
      { name: '@ada:bob', type: 'direct', subscribers: ['ada', 'bob'], createdAt: at },
    ]);
    expect((await repo.channels()).map((c) => [c.name, c.type, c.subscribers])).toEqual([
      ['#engineering', 'topic', []],
      ['@ada:bob', 'direct', ['ada', 'bob']],
    ]);
  });
});
