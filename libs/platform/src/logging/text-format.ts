/**
 * Human-readable rendering of our JSON log lines, for the console and for file sinks with
 * `json_format: false`. One line per record: local time, level, logger, event, then the record's
 * other fields as compact JSON; an error's stack follows on indented lines.
 *
 *   [2026-11-23 21:23:31.443 +0000] INFO: synthorg.api.access api.request.completed {"request_id":"…","duration_ms":0.07}
 *
 * The console sees every INFO record, the access log included, so this runs at the request rate.
 * Records as pino writes them (`{"level":…,"time":…,"logger":…, fields…, "event":…}`) are sliced,
 * not parsed: the fields are already valid, escaped JSON. Anything else takes the parsing path.
 */
export type TextFormatter = (line: string) => string;

const ESC = '\u001b[';
const RESET_FG = `${ESC}39m`;
type Colour = readonly [on: string, off: string];
const LEVEL_COLOURS: Record<string, Colour> = {
  TRACE: [`${ESC}90m`, RESET_FG],
  DEBUG: [`${ESC}34m`, RESET_FG],
  INFO: [`${ESC}32m`, RESET_FG],
  WARNING: [`${ESC}33m`, RESET_FG],
  ERROR: [`${ESC}31m`, RESET_FG],
  CRITICAL: [`${ESC}41m`, `${ESC}49m`],
};
const HEADING_COLOUR: Colour = [`${ESC}36m`, RESET_FG];
const FIELDS_COLOUR: Colour = [`${ESC}90m`, RESET_FG];
const PLAIN: Colour = ['', ''];

const LEVEL_PREFIX = '{"level":"';
const TIME_KEY = ',"time":"';
const LOGGER_KEY = ',"logger":"';
const EVENT_KEY = ',"event":"';
const STACK_KEY = '"stack":"';
/** Keys rendered in the heading, not among the fields. */
const HEADING_KEYS = new Set(['level', 'time', 'logger', 'event']);
/** Error-like fields, whose stack is rendered on lines of its own. */
const ERROR_KEYS = ['err', 'error'] as const;
const STACK_INDENT = '        ';
// Control characters (ANSI escapes included) are shown escaped, never interpreted by the terminal.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

interface Parts {
  level: string;
  time: unknown;
  heading: string;
  /** Compact JSON object of the other fields, or '' when there are none. */
  fields: string;
  /** Rendered stack lines (each starting with a newline), or ''. */
  stack: string;
}

export function createTextFormatter(colorize: boolean): TextFormatter {
  const clock = new LocalClock();
  const heading = colorize ? HEADING_COLOUR : PLAIN;
  const fields = colorize ? FIELDS_COLOUR : PLAIN;
  return (line: string): string => {
    const parts = sliceRecord(line) ?? parseRecord(line);
    if (!parts) {
      return line.endsWith('\n') ? line : `${line}\n`;
    }
    const [levelOn, levelOff] = colorize ? (LEVEL_COLOURS[parts.level] ?? PLAIN) : PLAIN;
    const tail = parts.fields === '' ? '' : ` ${fields[0]}${parts.fields}${fields[1]}`;
    return (
      `[${clock.render(parts.time)}] ${levelOn}${parts.level}${levelOff}: ` +
      `${heading[0]}${parts.heading}${heading[1]}${tail}${parts.stack}\n`
    );
  };
}

/** The fast path: a record in pino's layout with no stack to unfold. */
function sliceRecord(raw: string): Parts | undefined {
  const line = raw.endsWith('\n') ? raw.slice(0, -1) : raw;
  if (!line.startsWith(LEVEL_PREFIX) || !line.endsWith('}') || line.includes(STACK_KEY)) {
    return undefined;
  }
  const levelEnd = line.indexOf('"', LEVEL_PREFIX.length);
  if (levelEnd < 0 || !line.startsWith(TIME_KEY, levelEnd + 1)) {
    return undefined;
  }
  const timeStart = levelEnd + 1 + TIME_KEY.length;
  const timeEnd = line.indexOf('"', timeStart);
  if (timeEnd < 0) {
    return undefined;
  }
  let cursor = timeEnd + 1;
  let logger = '';
  if (line.startsWith(LOGGER_KEY, cursor)) {
    const start = cursor + LOGGER_KEY.length;
    const end = line.indexOf('"', start);
    if (end < 0) {
      return undefined;
    }
    logger = line.slice(start, end);
    cursor = end + 1;
  }
  // pino writes the message key last; the event is taken only when nothing but its value follows.
  const close = line.length - 1;
  let event = '';
  let fieldsEnd = close;
  const eventAt = line.lastIndexOf(EVENT_KEY);
  if (eventAt >= cursor && line.charCodeAt(close - 1) === 34 /* " */) {
    const start = eventAt + EVENT_KEY.length;
    if (line.indexOf('"', start) === close - 1) {
      event = line.slice(start, close - 1);
      fieldsEnd = eventAt;
    }
  }
  const inner = line.slice(cursor, fieldsEnd);
  return {
    level: line.slice(LEVEL_PREFIX.length, levelEnd),
    time: line.slice(timeStart, timeEnd),
    // Sliced from JSON, so still escaped: control characters cannot reach the terminal.
    heading: logger === '' ? event : event === '' ? logger : `${logger} ${event}`,
    fields: inner.startsWith(',') ? `{${inner.slice(1)}}` : '',
    stack: '',
  };
}

/** The general path: any JSON object, errors with their stacks unfolded. */
function parseRecord(line: string): Parts | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return undefined;
  }
  const record = parsed as Record<string, unknown>;
  const rest: Record<string, unknown> = {};
  let hasRest = false;
  let stack = '';
  for (const key of Object.keys(record)) {
    if (HEADING_KEYS.has(key)) {
      continue;
    }
    const value = record[key];
    if ((ERROR_KEYS as readonly string[]).includes(key) && isErrorLike(value)) {
      const { stack: trace, ...details } = value;
      stack += renderStack(trace);
      rest[key] = details;
    } else {
      rest[key] = value;
    }
    hasRest = true;
  }
  const heading = [record['logger'], record['event']]
    .filter((part) => part !== undefined && part !== null && part !== '')
    .map((part) => safeText(typeof part === 'string' ? part : JSON.stringify(part)))
    .join(' ');
  return {
    level: safeText(typeof record['level'] === 'string' ? record['level'] : (JSON.stringify(record['level']) ?? '')),
    time: record['time'],
    heading,
    fields: hasRest ? JSON.stringify(rest) : '',
    stack,
  };
}

function isErrorLike(value: unknown): value is { stack: string } & Record<string, unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { stack?: unknown }).stack === 'string';
}

/** The stack's frames, one per line under the record (the message is already among the fields). */
function renderStack(stack: string): string {
  let out = '';
  for (const frame of stack.split('\n')) {
    const trimmed = frame.trim();
    if (trimmed.startsWith('at ')) {
      out += `\n${STACK_INDENT}${safeText(trimmed)}`;
    }
  }
  return out;
}

function safeText(text: string): string {
  return text.replace(CONTROL_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * Renders the records' ISO-8601 UTC time as local time, `YYYY-MM-DD HH:MM:SS.mmm ±HHMM`. The zone
 * offset is looked up once per quarter hour, and a time is rendered once however many records share it.
 */
class LocalClock {
  private offsetFrom = Number.NaN;
  private offsetUntil = Number.NaN;
  private offsetMinutes = 0;
  private offsetLabel = '+0000';
  private lastTime: unknown = undefined;
  private lastRendered = '';

  render(time: unknown): string {
    if (time === this.lastTime) {
      return this.lastRendered;
    }
    const ms = typeof time === 'string' ? Date.parse(time) : typeof time === 'number' ? time : Number.NaN;
    let rendered: string;
    if (Number.isNaN(ms)) {
      rendered = safeText(typeof time === 'string' ? time : (JSON.stringify(time) ?? ''));
    } else {
      if (!(ms >= this.offsetFrom && ms < this.offsetUntil)) {
        this.refreshOffset(ms);
      }
      const local = new Date(ms + this.offsetMinutes * 60_000).toISOString();
      rendered = `${local.slice(0, 10)} ${local.slice(11, 23)} ${this.offsetLabel}`;
    }
    this.lastTime = time;
    this.lastRendered = rendered;
    return rendered;
  }

  private refreshOffset(ms: number): void {
    // getTimezoneOffset is minutes *behind* UTC: +60 means UTC-01:00.
    this.offsetMinutes = -new Date(ms).getTimezoneOffset();
    const sign = this.offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(this.offsetMinutes);
    this.offsetLabel = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
    this.offsetFrom = Math.floor(ms / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
    this.offsetUntil = this.offsetFrom + QUARTER_HOUR_MS;
  }
}
