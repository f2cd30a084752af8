import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';

import { meetingDue, type MeetingType } from '@app/domain';
import { DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { MeetingRunner } from './meeting-runner';
import { MeetingTypeCatalogue } from './meeting-type-catalogue';
import { MeetingsRepository } from './meetings.repository';

/** How often the schedule is checked: a due meeting starts within this of its time. */
export const MEETING_SCHEDULE_CHECK_MS = 60_000;

/**
 * Holds the meetings whose frequency is due. One replica at a time checks (a try-lock: the others
 * skip that round); a meeting's record is written as it starts, so the next round sees it held. A
 * failing meeting ends `failed` and a failing round is logged: the loop goes on.
 */
@Injectable()
export class MeetingScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private readonly log: Logger;

  constructor(
    private readonly types: MeetingTypeCatalogue,
    private readonly meetings: MeetingsRepository,
    private readonly runner: MeetingRunner,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('meetings');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runDue(), MEETING_SCHEDULE_CHECK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** One round: holds every due scheduled meeting; answers how many were held. */
  async runDue(now = new Date()): Promise<number> {
    try {
      if (!this.types.enabled()) {
        return 0;
      }
      const outcome = await this.lock.tryRunExclusive('meetings.schedule', () => this.holdDue(now));
      return outcome.ran ? outcome.value : 0;
    } catch (error) {
      this.log.error({ err: error }, 'meetings.schedule.failed');
      return 0;
    }
  }

  private async holdDue(now: Date): Promise<number> {
    const scheduled = (await this.types.all()).filter((type) => type.frequency !== null);
    const due: MeetingType[] = [];
    for (const type of scheduled) {
      if (
        meetingDue(
          type.frequency as NonNullable<MeetingType['frequency']>,
          await this.meetings.lastStartOf(type.name),
          now,
        )
      ) {
        due.push(type);
      }
    }
    const held = await Promise.allSettled(due.map((type) => this.runner.hold(type, { eventName: null, context: {} })));
    held.forEach((result, i) => {
      if (result.status === 'rejected') {
        this.log.error({ err: result.reason, meeting_type: due[i].name }, 'meetings.meeting.not_held');
      }
    });
    return held.filter((result) => result.status === 'fulfilled').length;
  }
}
