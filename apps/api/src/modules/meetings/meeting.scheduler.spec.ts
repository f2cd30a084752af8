import { type MeetingType, parseCompanyMeetingTypes } from '@app/domain';
import { DistributedLock } from '@app/platform';
import { makeServiceUnderTest } from '@app/testing';

import type { MeetingResponseDto } from './dto/meeting.dto';
import { MeetingRunner } from './meeting-runner';
import { MeetingScheduler } from './meeting.scheduler';
import { MeetingTypeCatalogue } from './meeting-type-catalogue';
import { MeetingsRepository } from './meetings.repository';

const NOW = new Date('2026-03-10T12:00:00Z');
const HOURS_AGO = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

const TYPES: MeetingType[] = parseCompanyMeetingTypes([
  { name: 'standup', frequency: 'daily', participants: ['all'] },
  { name: 'planning', frequency: 'weekly', participants: ['all'] },
  { name: 'retro', frequency: 'bi_weekly', participants: ['all'] },
  { name: 'incident', trigger: 'incident', participants: ['all'] },
]);

function scheduler(lockFree = true) {
  const built = makeServiceUnderTest(MeetingScheduler);
  built.mock(MeetingTypeCatalogue).enabled.mockReturnValue(true);
  built.mock(MeetingTypeCatalogue).all.mockResolvedValue(TYPES);
  built
    .mock(DistributedLock)
    .tryRunExclusive.mockImplementation(async (_name: string, fn: () => Promise<unknown>) =>
      lockFree ? { ran: true, value: await fn() } : { ran: false },
    );
  const last: Record<string, Date | null> = { standup: HOURS_AGO(25), planning: HOURS_AGO(30), retro: null };
  built.mock(MeetingsRepository).lastStartOf.mockImplementation((name: string) => Promise.resolve(last[name] ?? null));
  return built;
}

describe(MeetingScheduler.name, () => {
  it('should hold only the scheduled types whose interval has passed', async () => {
    const { sut, mock } = scheduler();
    mock(MeetingRunner).hold.mockResolvedValue({} as MeetingResponseDto);

    await expect(sut.runDue(NOW)).resolves.toBe(2);

    expect(mock(MeetingRunner).hold.mock.calls.map(([type]) => type.name)).toEqual(['standup', 'retro']);
    expect(mock(MeetingRunner).hold).toHaveBeenCalledWith(TYPES[0], { eventName: null, context: {} });
  });

  it('should keep holding the others when one meeting throws', async () => {
    const { sut, mock } = scheduler();
    mock(MeetingRunner).hold.mockImplementation((type) =>
      type.name === 'standup' ? Promise.reject(new Error('db down')) : Promise.resolve({} as MeetingResponseDto),
    );

    await expect(sut.runDue(NOW)).resolves.toBe(1);
    expect(mock(MeetingRunner).hold).toHaveBeenCalledTimes(2);
  });

  it('should skip the round when another replica holds the lock', async () => {
    const { sut, mock } = scheduler(false);

    await expect(sut.runDue(NOW)).resolves.toBe(0);
    expect(mock(MeetingRunner).hold).not.toHaveBeenCalled();
  });

  it('should survive a configuration that cannot be read', async () => {
    const { sut, mock } = scheduler();
    mock(MeetingTypeCatalogue).all.mockRejectedValue(new Error('invalid meeting types'));

    await expect(sut.runDue(NOW)).resolves.toBe(0);
  });
});
