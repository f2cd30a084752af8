import {
  contributionRank,
  type MeetingMinutes,
  meetingDurationSeconds,
  type MeetingPhase,
  type MeetingProtocol,
  type TaskPriority,
  tokenUsageByParticipant,
} from '@app/domain';
import { type MeetingEntity, rawIso, rawJson } from '@app/persistence';

import type { MeetingMinutesDto, MeetingResponseDto } from './dto/meeting.dto';

/** Minutes in their wire shape (how they are stored, too). */
export function toMinutesDto(minutes: MeetingMinutes): MeetingMinutesDto {
  return {
    meeting_id: minutes.meetingId,
    protocol_type: minutes.protocolType,
    leader_id: minutes.leaderId,
    participant_ids: [...minutes.participantIds],
    agenda: {
      title: minutes.agenda.title,
      context: minutes.agenda.context,
      items: minutes.agenda.items.map((i) => ({
        title: i.title,
        description: i.description,
        presenter_id: i.presenterId,
      })),
    },
    contributions: minutes.contributions.map((c) => ({
      agent_id: c.agentId,
      content: c.content,
      phase: c.phase,
      turn_number: c.turnNumber,
      input_tokens: c.inputTokens,
      output_tokens: c.outputTokens,
      timestamp: c.timestamp.toISOString(),
    })),
    summary: minutes.summary,
    decisions: [...minutes.decisions],
    action_items: minutes.actionItems.map((a) => ({
      description: a.description,
      assignee_id: a.assigneeId,
      priority: a.priority,
    })),
    conflicts_detected: minutes.conflictsDetected,
    total_input_tokens: minutes.totalInputTokens,
    total_output_tokens: minutes.totalOutputTokens,
    started_at: minutes.startedAt.toISOString(),
    ended_at: minutes.endedAt.toISOString(),
  };
}

/** Stored minutes back in domain form (for the figures derived from them). */
export function fromMinutesDto(dto: MeetingMinutesDto): MeetingMinutes {
  return {
    meetingId: dto.meeting_id,
    protocolType: dto.protocol_type as MeetingProtocol,
    leaderId: dto.leader_id,
    participantIds: dto.participant_ids,
    agenda: {
      title: dto.agenda.title,
      context: dto.agenda.context,
      items: dto.agenda.items.map((i) => ({ title: i.title, description: i.description, presenterId: i.presenter_id })),
    },
    contributions: dto.contributions.map((c) => ({
      agentId: c.agent_id,
      content: c.content,
      phase: c.phase as MeetingPhase,
      turnNumber: c.turn_number,
      inputTokens: c.input_tokens,
      outputTokens: c.output_tokens,
      timestamp: new Date(c.timestamp),
    })),
    summary: dto.summary,
    decisions: dto.decisions,
    actionItems: dto.action_items.map((a) => ({
      description: a.description,
      assigneeId: a.assignee_id,
      priority: a.priority as TaskPriority,
    })),
    conflictsDetected: dto.conflicts_detected,
    totalInputTokens: dto.total_input_tokens,
    totalOutputTokens: dto.total_output_tokens,
    startedAt: new Date(dto.started_at),
    endedAt: new Date(dto.ended_at),
  };
}

/** A meeting as the API shows it, with the figures its minutes give. */
export function toMeetingResponse(row: MeetingEntity): MeetingResponseDto {
  const stored = row.minutes as MeetingMinutesDto | null;
  const minutes = stored === null ? null : fromMinutesDto(stored);
  return {
    meeting_id: row.id,
    meeting_type_name: row.meetingTypeName,
    protocol_type: row.protocolType,
    status: row.status,
    minutes: stored,
    error_message: row.errorMessage,
    token_budget: row.tokenBudget,
    token_usage_by_participant: tokenUsageByParticipant(minutes),
    contribution_rank: contributionRank(minutes),
    meeting_duration_seconds: meetingDurationSeconds(minutes),
    participant_names: { ...row.participantNames },
  };
}

/** The columns of `meetings` a list page reads. */
export const MEETING_ROW_COLUMNS = [
  'id',
  'meeting_type_name',
  'protocol_type',
  'status',
  'trigger_event',
  'token_budget',
  'participant_names',
  'minutes',
  'error_message',
  'created_at',
  'updated_at',
] as const;

/** A list row as the database answers it (either dialect). */
export type MeetingRow = Record<(typeof MEETING_ROW_COLUMNS)[number], unknown>;

/** A raw list row as an entity (simple-json columns arrive as text). */
export function meetingFromRow(row: MeetingRow): MeetingEntity {
  return {
    id: String(row.id),
    meetingTypeName: String(row.meeting_type_name),
    protocolType: String(row.protocol_type),
    status: String(row.status),
    triggerEvent: typeof row.trigger_event === 'string' ? row.trigger_event : null,
    tokenBudget: Number(row.token_budget),
    participantNames: rawJson<Record<string, string>>(row.participant_names),
    minutes: row.minutes === null || row.minutes === undefined ? null : rawJson<Record<string, unknown>>(row.minutes),
    errorMessage: typeof row.error_message === 'string' ? row.error_message : null,
    createdAt: new Date(rawIso(row.created_at)),
    updatedAt: new Date(rawIso(row.updated_at)),
  };
}
