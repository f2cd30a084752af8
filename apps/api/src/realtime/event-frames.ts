import { redactCostPayload } from '@app/domain';
import type { ReceivedEvent } from '@app/platform';

/** The server → client event frame, keys in the documented order. */
export function serializeEventFrame(event: ReceivedEvent, payload: Record<string, unknown>): string {
  return JSON.stringify({
    event_type: event.event_type,
    channel: event.channel,
    timestamp: event.timestamp,
    payload,
    event_id: event.event_id,
  });
}

/**
 * The serialised forms of one event, built lazily and at most once per audience variant: fanning out
 * to a thousand sockets costs one or two JSON.stringify calls, not a thousand.
 */
export class EventFrames {
  private full: string | null = null;
  private readOnly: string | null = null;

  constructor(private readonly event: ReceivedEvent) {}

  /** For roles that see cost figures. */
  forFullAccess(): string {
    this.full ??= serializeEventFrame(this.event, this.event.payload);
    return this.full;
  }

  /** For read-only roles: cost redacted; the full frame is reused when there was nothing to redact. */
  forReadOnly(): string {
    if (this.readOnly === null) {
      const { payload, redacted } = redactCostPayload(this.event.payload);
      this.readOnly = redacted ? serializeEventFrame(this.event, payload) : this.forFullAccess();
    }
    return this.readOnly;
  }
}
