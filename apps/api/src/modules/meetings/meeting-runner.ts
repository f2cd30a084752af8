import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  buildAgenda,
  Channel,
  InternalError,
  MEETING_LIMITS,
  type MeetingContext,
  type MeetingMinutes,
  type MeetingOutcome,
  meetingInvariantHolds,
  type MeetingType,
  resolveParticipants,
  runMeeting,
} from '@app/domain';
import type { AgentEntity, MeetingEntity } from '@app/persistence';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import type { MeetingResponseDto } from './dto/meeting.dto';
import { MeetingActionTasks } from './meeting-action-tasks';
import { MeetingCalls } from './meeting-calls';
import { toMeetingResponse, toMinutesDto } from './meetings.mapper';
import { MeetingsRepository } from './meetings.repository';

/** Why a meeting was held: a matched trigger (with its context), or its frequency. */
export interface MeetingOccasion {
  eventName: string | null;
  context: MeetingContext;
}

/**
 * Holds one meeting of a type: resolves its participants, records it in progress, runs its protocol,
 * turns its action items into tasks, and writes the final record. Never throws: whatever goes wrong
 * ends this meeting `failed` and nothing else.
 */
@Injectable()
export class MeetingRunner {
  private readonly log: Logger;

  constructor(
    private readonly meetings: MeetingsRepository,
    private readonly roster: AgentRoster,
    private readonly calls: MeetingCalls,
    private readonly actions: MeetingActionTasks,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('meetings');
  }

  async hold(type: MeetingType, occasion: MeetingOccasion): Promise<MeetingResponseDto> {
    const id = `mtg-${randomUUID()}`;
    const agents = await this.roster.all();
    const ids = resolveParticipants(type.participants, occasion.context, agents);
    const byId = new Map(agents.map((a) => [a.id, a]));
    const participants = ids.map((pid) => byId.get(pid) as AgentEntity);
    const now = new Date();
    const row: MeetingEntity = {
      id,
      meetingTypeName: type.name,
      protocolType: type.protocolConfig.protocol,
      status: 'in_progress',
      triggerEvent: occasion.eventName,
      tokenBudget: type.durationTokens,
      participantNames: Object.fromEntries(participants.map((p) => [p.id, p.name])),
      minutes: null,
      errorMessage: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.meetings.insert(row);
    this.log.info(
      {
        meeting_id: id,
        meeting_type: type.name,
        protocol: row.protocolType,
        participants: ids.length,
        trigger: occasion.eventName,
      },
      'meetings.meeting.started',
    );
    await this.announce('meeting.started', row);
    let outcome: MeetingOutcome;
    if (participants.length < MEETING_LIMITS.minParticipants) {
      outcome = {
        status: 'failed',
        minutes: null,
        errorMessage: `a meeting needs at least ${MEETING_LIMITS.minParticipants} resolved participants; ${participants.length} resolved`,
      };
    } else {
      outcome = await this.run(id, type, occasion, participants);
    }
    return this.finish(row, type, outcome);
  }

  private async run(
    id: string,
    type: MeetingType,
    occasion: MeetingOccasion,
    participants: AgentEntity[],
  ): Promise<MeetingOutcome> {
    try {
      return await runMeeting(
        {
          meetingId: id,
          agenda: buildAgenda(type.name, occasion.eventName, occasion.context),
          participants: participants.map((p) => ({ id: p.id, name: p.name })),
          config: type.protocolConfig,
          tokenBudget: type.durationTokens,
        },
        this.calls.portsFor({
          meetingId: id,
          meetingTypeName: type.name,
          channel: type.channel,
          agents: new Map(participants.map((p) => [p.id, p])),
        }),
      );
    } catch (error) {
      return { status: 'failed', minutes: null, errorMessage: (error as Error).message || String(error) };
    }
  }

  private async finish(row: MeetingEntity, type: MeetingType, outcome: MeetingOutcome): Promise<MeetingResponseDto> {
    if (outcome.status === 'completed' && type.protocolConfig.autoCreateTasks) {
      await this.createTasks(row.id, type, outcome.minutes);
    }
    const end = {
      status: outcome.status,
      minutes: outcome.minutes === null ? null : toMinutesDto(outcome.minutes),
      errorMessage: outcome.errorMessage,
      updatedAt: new Date(),
    };
    if (!meetingInvariantHolds(end.status, end.minutes !== null, end.errorMessage)) {
      throw new InternalError(`meeting ${row.id} would end ${end.status} against the record invariants`);
    }
    const finished: MeetingEntity = { ...row, ...end };
    try {
      await this.meetings.finish(row.id, end);
    } catch (error) {
      this.log.error({ err: error, meeting_id: row.id }, 'meetings.meeting.record_failed');
      throw error;
    }
    if (outcome.status === 'completed') {
      this.log.info(
        { meeting_id: row.id, meeting_type: type.name, action_items: outcome.minutes.actionItems.length },
        'meetings.meeting.completed',
      );
      await this.announce('meeting.completed', finished);
    } else {
      this.log.warn(
        { meeting_id: row.id, meeting_type: type.name, status: outcome.status, error: outcome.errorMessage },
        'meetings.meeting.failed',
      );
      await this.announce('meeting.failed', finished);
    }
    return toMeetingResponse(finished);
  }

  private async createTasks(id: string, type: MeetingType, minutes: MeetingMinutes): Promise<void> {
    try {
      await this.actions.create(type, minutes);
    } catch (error) {
      this.log.error({ err: error, meeting_id: id }, 'meetings.action_items.failed');
    }
  }

  private announce(
    eventType: 'meeting.started' | 'meeting.completed' | 'meeting.failed',
    row: MeetingEntity,
  ): Promise<void> {
    const meeting = toMeetingResponse(row);
    return announce(this.bus, this.log, {
      channel: Channel.Meetings,
      event_type: eventType,
      payload: { meeting_id: row.id, meeting_type_name: row.meetingTypeName, status: row.status, meeting },
    });
  }
}
