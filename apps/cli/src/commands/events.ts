// events tail: the live event stream of chosen channels, until interrupted.
import type { Command } from 'commander';

import { commaList, type Context } from '../context';
import { usage } from '../errors';
import { type LiveEvent, streamEvents } from '../events';
import { paint, renderJson } from '../output';
import type { Flags, Registry } from '../program';

export const CHANNELS = [
  'tasks',
  'agents',
  'budget',
  'messages',
  'system',
  'approvals',
  'meetings',
  'artifacts',
  'projects',
  'company',
  'departments',
  'providers',
];

/** The id an event is about: the first `*_id` or `id` of its payload or of the resource in it. */
export function subjectOf(event: LiveEvent): string {
  const payload = event.payload ?? {};
  for (const [key, value] of Object.entries(payload)) {
    if ((key === 'id' || key.endsWith('_id')) && typeof value === 'string') {
      return value;
    }
  }
  for (const value of Object.values(payload)) {
    if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
      return (value as { id: string }).id;
    }
  }
  return '';
}

async function tail(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const channels = commaList(typeof flags.channel === 'string' ? flags.channel : undefined) ?? CHANNELS;
  const unknown = channels.filter((c) => !CHANNELS.includes(c));
  if (unknown.length > 0 || channels.length === 0) {
    throw usage(`unknown channel ${unknown.join(', ')}: one of ${CHANNELS.join(', ')}`);
  }
  await streamEvents(ctx, channels, (event) => {
    if (ctx.mode.json) {
      ctx.out(renderJson(event, false));
    } else if (ctx.mode.quiet) {
      ctx.out(`${event.event_id}\n`);
    } else {
      const when = paint(event.timestamp, 'dim', ctx.mode.color);
      ctx.out(
        `${when}  ${event.channel.padEnd(11)}  ${paint(event.event_type, 'cyan', ctx.mode.color)}  ${subjectOf(event)}\n`,
      );
    }
  });
}

export function registerEvents(program: Command, r: Registry): void {
  const events = program.command('events').description('the live event stream');
  events
    .command('tail')
    .description('print events as they happen, until interrupted (--json: one JSON line per event)')
    .option('--channel <names>', `comma-separated channels (default: all): ${CHANNELS.join(', ')}`)
    .action(r.action(tail));
}
