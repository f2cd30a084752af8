import type { ReceivedEvent } from './domain-event';

/**
 * The NOTIFY channel. A payload is the row id alone (NOTIFY payloads are capped at 8000 bytes, so
 * the event itself stays in the row), the format replicas of earlier builds expect, so replicas of
 * different builds understand each other during a rolling upgrade. The writing replica recognises
 * its own ids from its insert's answer, not from the payload.
 */
export const EVENTS_NOTIFY_CHANNEL = 'synthorg_events';

/** A `domain_events` row as the bridge selects it. */
export interface StoredEventRow {
  id: number;
  channel: string;
  event_type: string;
  payload: string;
  origin_id: string;
  created_at: Date | string;
}

/**
 * The `payload` column holds an envelope, not the bare payload: the event id and the publisher's
 * timestamp must survive the trip so every replica delivers the very same event.
 */
interface StoredEnvelope {
  v: 1;
  event_id: string;
  timestamp: string;
  payload: Record<string, unknown>;
}

export function encodeStoredPayload(event: ReceivedEvent): string {
  const envelope: StoredEnvelope = {
    v: 1,
    event_id: event.event_id,
    timestamp: event.timestamp,
    payload: event.payload,
  };
  return JSON.stringify(envelope);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Rebuilds the remote event from its row. A row written without the envelope (by hand, or by an
 * older writer) still decodes: its JSON object is the payload, the row supplies id and time.
 * Returns null when the column is not a JSON object at all. The event is typed by its envelope
 * only: its channel and event_type are checked against the catalogue where a listener narrows it
 * (isEvent, subscribeTo), so one this build does not know still reaches the listeners of every
 * event (the WebSocket fan-out), as it always has.
 */
export function decodeStoredRow(row: StoredEventRow): ReceivedEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.payload);
  } catch {
    return null;
  }
  if (!isPlainObject(parsed)) {
    return null;
  }
  const base = { channel: row.channel, event_type: row.event_type, origin: 'remote' as const };
  if (
    parsed.v === 1 &&
    typeof parsed.event_id === 'string' &&
    typeof parsed.timestamp === 'string' &&
    isPlainObject(parsed.payload)
  ) {
    return { ...base, event_id: parsed.event_id, timestamp: parsed.timestamp, payload: parsed.payload };
  }
  const createdAt = row.created_at instanceof Date ? row.created_at : new Date(row.created_at);
  return {
    ...base,
    event_id: `row-${row.id}`,
    timestamp: Number.isNaN(createdAt.getTime()) ? new Date().toISOString() : createdAt.toISOString(),
    payload: parsed,
  };
}

/** Exponential reconnect delay, capped: attempt 0 waits `initialMs`. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
}
