import { rawIso, rawJson, type MessageChannelEntity, type MessageEntity } from '@app/persistence';

import type { ChannelDto, MessageDto, MessageMetadataDto } from './dto/message.dto';

/** A channel as the API shows it. */
export function toChannelDto(row: MessageChannelEntity): ChannelDto {
  return { name: row.name, type: row.type, subscribers: [...row.subscribers] };
}

/** A message row as the API shows it: the sender is `from`, times are ISO 8601. */
export function toMessageDto(row: MessageEntity): MessageDto {
  return {
    id: row.id,
    timestamp: row.timestamp.toISOString(),
    from: row.sender,
    to: row.recipient,
    type: row.type,
    priority: row.priority,
    channel: row.channel,
    content: row.content,
    attachments: row.attachments.map((a) => ({ type: a.type, ref: a.ref })),
    metadata: toMetadata(row.metadata),
  };
}

/** The columns of `messages` a list page reads. */
export const MESSAGE_ROW_COLUMNS = [
  'id',
  'timestamp',
  'sender',
  'recipient',
  'type',
  'priority',
  'channel',
  'content',
  'attachments',
  'metadata',
] as const;

/** A list row as the database answers it (either dialect). */
export type MessageRow = Record<(typeof MESSAGE_ROW_COLUMNS)[number], unknown>;

/** A raw list row as the API shows it. */
export function toMessageDtoFromRow(row: MessageRow): MessageDto {
  return toMessageDto({
    id: String(row.id),
    timestamp: new Date(rawIso(row.timestamp)),
    sender: String(row.sender),
    recipient: String(row.recipient),
    type: String(row.type),
    priority: String(row.priority),
    channel: String(row.channel),
    content: String(row.content),
    attachments: rawJson<Array<{ type: string; ref: string }> | null>(row.attachments) ?? [],
    metadata: rawJson<Record<string, unknown> | null>(row.metadata) ?? {},
  });
}

function toMetadata(stored: Record<string, unknown>): MessageMetadataDto {
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const extra = Array.isArray(stored.extra)
    ? stored.extra.filter(
        (pair): pair is [string, string] =>
          Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'),
      )
    : [];
  return {
    task_id: text(stored.task_id),
    project_id: text(stored.project_id),
    tokens_used: num(stored.tokens_used),
    cost_usd: num(stored.cost_usd),
    extra,
  };
}
