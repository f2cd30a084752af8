/**
 * Live events over the WebSocket: a one-time ticket from `POST /auth/ws-ticket` (the token never
 * travels in a URL), a subscription, then every event to `onEvent` until SIGINT or SIGTERM. A
 * dropped connection is re-opened with a fresh ticket (at most 5 times in a row).
 */
import { type Context, unwrap } from './context';
import { CliError, ExitCode } from './errors';

export interface LiveEvent {
  event_type: string;
  channel: string;
  timestamp: string;
  payload: Record<string, unknown>;
  event_id: string;
}

const RETRIES = 5;
const PING_MS = 25_000;

/** The WebSocket URL of a server URL (http → ws, https → wss). */
export function socketUrl(serverUrl: string, ticket: string): string {
  const url = new URL(`${serverUrl}/api/v1/ws`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('ticket', ticket);
  return url.toString();
}

type Outcome = { kind: 'stopped' } | { kind: 'closed'; code: number; reason: string; subscribed: boolean };

export async function streamEvents(
  ctx: Context,
  channels: string[],
  onEvent: (event: LiveEvent) => void,
  filters: Record<string, string> | null = null,
): Promise<void> {
  let stop: (() => void) | null = null;
  let stopped = false;
  const onSignal = () => {
    stopped = true;
    stop?.();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    let failures = 0;
    while (!stopped) {
      const { ticket } = await unwrap(ctx.client.POST('/api/v1/auth/ws-ticket'));
      const outcome = await new Promise<Outcome>((resolve) => {
        const socket = new WebSocket(socketUrl(ctx.profile.url, ticket));
        let subscribed = false;
        let ping: NodeJS.Timeout | null = null;
        stop = () => {
          socket.close(1000, 'client done');
          resolve({ kind: 'stopped' });
        };
        socket.addEventListener('open', () => {
          socket.send(JSON.stringify({ action: 'subscribe', channels, filters }));
          ping = setInterval(() => socket.send(JSON.stringify({ action: 'ping' })), PING_MS);
        });
        socket.addEventListener('message', (message: MessageEvent) => {
          let data: Record<string, unknown>;
          try {
            data = JSON.parse(String(message.data)) as Record<string, unknown>;
          } catch {
            return;
          }
          if (data.action === 'subscribed') {
            subscribed = true;
            failures = 0;
            if (!ctx.mode.quiet) {
              ctx.io.stderr.write(`subscribed to ${(data.channels as string[]).join(', ') || 'nothing'}\n`);
            }
          } else if (typeof data.event_type === 'string') {
            onEvent(data as unknown as LiveEvent);
          } else if (typeof data.error === 'string') {
            ctx.io.stderr.write(`synthorg: the server refused a message: ${data.error}\n`);
          }
        });
        socket.addEventListener('close', (event: CloseEvent) => {
          if (ping) {
            clearInterval(ping);
          }
          resolve({ kind: 'closed', code: event.code, reason: event.reason, subscribed });
        });
        socket.addEventListener('error', () => undefined);
      });
      stop = null;
      if (outcome.kind === 'stopped' || stopped) {
        return;
      }
      if (outcome.code === 4001 || outcome.code === 4003) {
        throw new CliError(
          `the server closed the stream (${outcome.code} ${outcome.reason || 'unauthorised'})`,
          ExitCode.Unauthenticated,
        );
      }
      failures++;
      if (failures > RETRIES) {
        throw new CliError(`the event stream keeps closing (code ${outcome.code})`, ExitCode.ApiError);
      }
      ctx.io.stderr.write(`synthorg: the event stream closed (code ${outcome.code}); reconnecting\n`);
      await new Promise((done) => setTimeout(done, Math.min(8000, 500 * 2 ** failures)));
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
