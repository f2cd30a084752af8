import type { SinkHostConfig } from './sink-host';

/** Messages from the logging thread to the sink thread. */
export type HostRequest =
  /** Newline-terminated records, concatenated, and each record's pino level value, in order. */
  | { type: 'records'; text: string; levels: Uint8Array; chars: number }
  | { type: 'flush'; id: number }
  /** Swap to these sinks; done once the retired sinks are drained. */
  | { type: 'reconfigure'; id: number; config: SinkHostConfig }
  | { type: 'close'; id: number };

/** Messages from the sink thread back: records taken (backlog accounting), or a request done. */
export type HostReply = { type: 'taken'; chars: number } | { type: 'done'; id: number; error?: string };
