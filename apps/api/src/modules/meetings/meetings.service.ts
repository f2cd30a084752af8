import { Injectable } from '@nestjs/common';

import { assertTriggerRequest, ErrorCode, NotFoundError, Page, type PageRequest } from '@app/domain';

import type { MeetingQueryDto, MeetingResponseDto, TriggerMeetingDto } from './dto/meeting.dto';
import { MeetingRunner } from './meeting-runner';
import { MeetingTypeCatalogue } from './meeting-type-catalogue';
import { toMeetingResponse } from './meetings.mapper';
import { MeetingsRepository } from './meetings.repository';

/** Meetings: the list, one meeting, and holding the meetings a trigger matches. */
@Injectable()
export class MeetingsService {
  constructor(
    private readonly meetings: MeetingsRepository,
    private readonly types: MeetingTypeCatalogue,
    private readonly runner: MeetingRunner,
  ) {}

  /** One page of meetings, oldest first, filtered by status and exact type name. */
  async list(query: MeetingQueryDto, page: PageRequest): Promise<Page<MeetingResponseDto>> {
    const { items, total } = await this.meetings.page({ status: query.status, meetingType: query.meeting_type }, page);
    return new Page(items.map(toMeetingResponse), total, page.offset, page.limit);
  }

  /** One meeting by id. */
  async get(id: string): Promise<MeetingResponseDto> {
    const row = await this.meetings.findById(id);
    if (!row) {
      throw new NotFoundError(`Meeting "${id}" not found`, ErrorCode.MeetingNotFound);
    }
    return toMeetingResponse(row);
  }

  /**
   * Holds, in parallel, one meeting of every type whose `trigger` is the event; answers them in
   * configuration order (none when nothing matches or meetings are disabled).
   */
  async trigger(dto: TriggerMeetingDto): Promise<MeetingResponseDto[]> {
    const { eventName, context } = assertTriggerRequest(dto.event_name, dto.context);
    if (!this.types.enabled()) {
      return [];
    }
    const matched = (await this.types.all()).filter((type) => type.trigger === eventName);
    return Promise.all(matched.map((type) => this.runner.hold(type, { eventName, context })));
  }
}
