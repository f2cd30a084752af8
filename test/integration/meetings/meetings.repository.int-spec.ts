import { MeetingEntity } from '@app/persistence';
import { type MigratedDatabase, openMigratedDatabase, testBackends } from '@app/testing';

import { toMeetingResponse } from '../../../apps/api/src/modules/meetings/meetings.mapper';
import { MeetingsRepository } from '../../../apps/api/src/modules/meetings/meetings.repository';

const MINUTES = {
  meeting_id: 'mtg-1',
  protocol_type: 'round_robin',
  leader_id: 'a1',
  participant_ids: ['a1', 'a2'],
  agenda: { title: 'sync', context: 'event: go', items: [{ title: 'sync', description: '', presenter_id: null }] },
  contributions: [
    {
      agent_id: 'a2',
      content: 'Ship it',
      phase: 'round_robin_turn',
      turn_number: 1,
      input_tokens: 30,
      output_tokens: 10,
      timestamp: '2026-01-02T03:04:06.000Z',
    },
    {
      agent_id: 'a1',
      content: 'SUMMARY: shipped',
      phase: 'summary',
      turn_number: 2,
      input_tokens: 5,
      output_tokens: 5,
      timestamp: '2026-01-02T03:04:09.000Z',
    },
  ],
  summary: 'shipped',
  decisions: ['ship'],
  action_items: [{ description: 'Write notes', assignee_id: 'a2', priority: 'high' }],
  conflicts_detected: false,
  total_input_tokens: 35,
  total_output_tokens: 15,
  started_at: '2026-01-02T03:04:05.000Z',
  ended_at: '2026-01-02T03:04:10.000Z',
};

function meeting(id: string, type: string, status: string, at: number): MeetingEntity {
  const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + at);
  return {
    id,
    meetingTypeName: type,
    protocolType: 'round_robin',
    status,
    triggerEvent: 'go',
    tokenBudget: 2000,
    participantNames: { a1: 'Ada', a2: 'Bob' },
    minutes: status === 'completed' ? { ...MINUTES, meeting_id: id } : null,
    errorMessage: status === 'completed' ? null : 'token budget of 2000 exhausted during summary (2100 tokens used)',
    createdAt: when,
    updatedAt: when,
  };
}

describe.each(testBackends())('MeetingsRepository on %s', (backend) => {
  let store: MigratedDatabase;
  let repo: MeetingsRepository;

  beforeAll(async () => {
    store = await openMigratedDatabase(backend);
    repo = new MeetingsRepository(store.database);
  });

  beforeEach(() => store.clear(MeetingEntity));

  afterAll(() => store?.close());

  it('should read a page as raw rows that map to exactly what a single read maps to', async () => {
    const row = meeting('mtg-1', 'sync', 'completed', 0);
    await repo.insert(row);

    const { items, total } = await repo.page({}, { offset: 0, limit: 10 });

    expect(total).toBe(1);
    expect(items.map(toMeetingResponse)).toEqual([toMeetingResponse(row)]);
    const single = await repo.findById('mtg-1');
    expect(single && toMeetingResponse(single)).toEqual(toMeetingResponse(row));
    expect(toMeetingResponse(row)).toMatchObject({
      token_usage_by_participant: { a1: 10, a2: 40 },
      contribution_rank: ['a2', 'a1'],
      meeting_duration_seconds: 5,
    });
  });

  it('should filter by status and exact type, oldest first, and finish a meeting in place', async () => {
    await repo.insert(meeting('mtg-a', 'sync', 'in_progress', 1));
    await repo.insert(meeting('mtg-b', 'retro', 'budget_exhausted', 2));
    await repo.insert(meeting('mtg-c', 'sync', 'completed', 3));

    const sync = await repo.page({ meetingType: 'sync' }, { offset: 0, limit: 10 });
    expect(sync.items.map((m) => m.id)).toEqual(['mtg-a', 'mtg-c']);
    expect((await repo.page({ meetingType: 'Sync' }, { offset: 0, limit: 10 })).total).toBe(0);
    const exhausted = await repo.page({ status: 'budget_exhausted' }, { offset: 0, limit: 10 });
    expect(exhausted.items.map((m) => m.id)).toEqual(['mtg-b']);

    await repo.finish('mtg-a', { status: 'failed', minutes: null, errorMessage: 'boom', updatedAt: new Date() });
    expect(await repo.findById('mtg-a')).toMatchObject({ status: 'failed', errorMessage: 'boom', minutes: null });
  });

  it('should answer the latest start of a type, or null when it never met', async () => {
    await repo.insert(meeting('mtg-a', 'sync', 'completed', 1_000));
    await repo.insert(meeting('mtg-b', 'sync', 'failed', 60_000));

    expect((await repo.lastStartOf('sync'))?.toISOString()).toBe('2026-01-02T03:05:05.000Z');
    await expect(repo.lastStartOf('retro')).resolves.toBeNull();
  });
});
