import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { MeetingQueryDto, MeetingResponseDto, TriggerMeetingDto } from './dto/meeting.dto';
import { MeetingsService } from './meetings.service';

/** Meetings: the record of those held, and triggering those an event calls for. */
@ApiTags('meetings')
@ApiBearerAuth()
@Controller('meetings')
@RequiresSubsystems('persistence')
export class MeetingsController {
  constructor(private readonly meetings: MeetingsService) {}

  @Get()
  @Endpoint({
    summary: 'Meetings filtered by status and meeting type, oldest first',
    paged: MeetingResponseDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: MeetingQueryDto): Promise<Page<MeetingResponseDto>> {
    return this.meetings.list(query, { offset: query.offset, limit: query.limit });
  }

  @Post('trigger')
  @HttpCode(200)
  @Endpoint({
    summary: 'Hold, in parallel, a meeting of every type whose trigger is the event (none: an empty list)',
    response: MeetingResponseDto,
    isArray: true,
    errors: [400, 401, 403, 409],
    permission: Permission.Write,
  })
  trigger(@Body() dto: TriggerMeetingDto): Promise<MeetingResponseDto[]> {
    return this.meetings.trigger(dto);
  }

  @Get(':meeting_id')
  @Endpoint({
    summary: 'One meeting, with its minutes when completed',
    response: MeetingResponseDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('meeting_id') id: string): Promise<MeetingResponseDto> {
    return this.meetings.get(id);
  }
}
