import { ErrorCode, type MeetingType, NotFoundError, parseCompanyMeetingTypes, ValidationError } from '@app/domain';
import type { MeetingEntity } from '@app/persistence';
import { makeServiceUnderTest } from '@app/testing';

import type { MeetingResponseDto } from './dto/meeting.dto';
import { MeetingRunner } from './meeting-runner';
import { MeetingTypeCatalogue } from './meeting-type-catalogue';
import { MeetingsRepository } from './meetings.repository';
import { MeetingsService } from './meetings.service';

const CREATED = new Date('2026-01-01T00:00:00.000Z');

function makeMeeting(overrides: Partial<MeetingEntity> = {}): MeetingEntity {
  return {
    id: 'mtg-1',
    meetingTypeName: 'standup',
    protocolType: 'round_robin',
    status: 'failed',
    triggerEvent: 'sprint_start',
    tokenBudget: 2000,
    participantNames: { a1: 'Ada', a2: 'Bob' },
    minutes: null,
    errorMessage: 'boom',
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

const TYPES: MeetingType[] = parseCompanyMeetingTypes([
  { name: 'kickoff', trigger: 'sprint_start', participants: ['all'] },
  { name: 'retro', trigger: 'sprint_end', participants: ['all'] },
  { name: 'review', trigger: 'sprint_start', participants: ['all'] },
  { name: 'standup', frequency: 'daily', participants: ['all'] },
]);

describe(MeetingsService.name, () => {
  it('should pass the filters and answer the mapped page when meetings are listed', async () => {
    const { sut, mock } = makeServiceUnderTest(MeetingsService);
    mock(MeetingsRepository).page.mockResolvedValue({ items: [makeMeeting()], total: 3 });

    const page = await sut.list(
      { status: 'failed', meeting_type: 'standup', offset: 1, limit: 1 },
      { offset: 1, limit: 1 },
    );

    expect(mock(MeetingsRepository).page).toHaveBeenCalledWith(
      { status: 'failed', meetingType: 'standup' },
      { offset: 1, limit: 1 },
    );
    expect(page).toMatchObject({ total: 3, offset: 1, limit: 1 });
    expect(page.items[0]).toMatchObject({
      meeting_id: 'mtg-1',
      status: 'failed',
      minutes: null,
      error_message: 'boom',
      token_usage_by_participant: {},
      contribution_rank: [],
      meeting_duration_seconds: null,
      participant_names: { a1: 'Ada', a2: 'Bob' },
    });
  });

  it('should throw MeetingNotFound when no meeting has the id', async () => {
    const { sut, mock } = makeServiceUnderTest(MeetingsService);
    mock(MeetingsRepository).findById.mockResolvedValue(null);

    const failure = sut.get('missing');

    await expect(failure).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.MeetingNotFound });
  });

  it('should hold every type whose trigger is the event when a trigger arrives', async () => {
    const { sut, mock } = makeServiceUnderTest(MeetingsService);
    mock(MeetingTypeCatalogue).enabled.mockReturnValue(true);
    mock(MeetingTypeCatalogue).all.mockResolvedValue(TYPES);
    mock(MeetingRunner).hold.mockImplementation((type) =>
      Promise.resolve({ meeting_type_name: type.name } as MeetingResponseDto),
    );

    const held = await sut.trigger({ event_name: 'sprint_start', context: { agenda: ['plan'] } });

    expect(held.map((m) => m.meeting_type_name)).toEqual(['kickoff', 'review']);
    expect(mock(MeetingRunner).hold).toHaveBeenCalledWith(TYPES[0], {
      eventName: 'sprint_start',
      context: { agenda: ['plan'] },
    });
  });

  it('should answer an empty list when meetings are disabled', async () => {
    const { sut, mock } = makeServiceUnderTest(MeetingsService);
    mock(MeetingTypeCatalogue).enabled.mockReturnValue(false);

    await expect(sut.trigger({ event_name: 'sprint_start' })).resolves.toEqual([]);
    expect(mock(MeetingRunner).hold).not.toHaveBeenCalled();
  });

  it('should refuse a blank event name with 2090', async () => {
    const { sut } = makeServiceUnderTest(MeetingsService);

    const failure = sut.trigger({ event_name: '  ' });

    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.MeetingTriggerInvalid });
  });
});
