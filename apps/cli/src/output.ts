/**
 * What a command prints: a table or a record for people (colour only on a terminal that wants it),
 * the API's data as one JSON document for scripts (`--json`), or only ids (`--quiet`).
 */

export interface OutputMode {
  json: boolean;
  quiet: boolean;
  color: boolean;
}

/** A column of a table: its header and how a row's cell is read. */
export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Colours the cell by its text (statuses, levels). */
  tone?: boolean;
}

/**
 * Whether to colour: only when the stream is a terminal, never with `NO_COLOR` set (any value but
 * empty, as no-color.org says), never with `--no-color` or `TERM=dumb`.
 */
export function colorWanted(isTty: boolean, env: NodeJS.ProcessEnv, flag = true): boolean {
  if (!flag || !isTty) {
    return false;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') {
    return false;
  }
  return env.TERM !== 'dumb';
}

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, cyan: 36 } as const;
type Style = keyof typeof CODES;

export function paint(text: string, style: Style, color: boolean): string {
  return color ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
}

const GOOD = new Set(['ok', 'true', 'completed', 'approved', 'active', 'healthy', 'ready', 'applied', 'success']);
const BAD = new Set(['false', 'failed', 'rejected', 'error', 'critical', 'high', 'down', 'cancelled', 'unhealthy']);
const WARN = new Set(['pending', 'warning', 'medium', 'in_progress', 'degraded', 'blocked', 'expired', 'unknown']);

function tone(text: string, color: boolean): string {
  if (!color) {
    return text;
  }
  const key = text.toLowerCase();
  if (GOOD.has(key)) {
    return paint(text, 'green', true);
  }
  if (BAD.has(key)) {
    return paint(text, 'red', true);
  }
  if (WARN.has(key)) {
    return paint(text, 'yellow', true);
  }
  return text;
}

/** One cell as text: `-` for nothing, lists joined, objects as compact JSON, one line always. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') {
    return '-';
  }
  if (typeof value === 'string') {
    return value.replace(/\s+/g, ' ');
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (Array.isArray(value)) {
    return value.length === 0
      ? '-'
      : value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : cell(v))).join(', ');
  }
  return JSON.stringify(value);
}

/** Visible width of a string (ANSI escapes take none). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function width(text: string): number {
  return text.replace(ANSI, '').length;
}

const MAX_CELL = 60;

function clip(text: string): string {
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** Rows under a header, columns padded to their widest cell (cells clipped at 60 characters). */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], color: boolean): string {
  if (rows.length === 0) {
    return paint('(none)', 'dim', color) + '\n';
  }
  const texts = rows.map((row) => columns.map((c) => clip(cell(c.value(row)))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...texts.map((t) => t[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((text, i) => text + ' '.repeat(Math.max(0, widths[i] - width(text))))
      .join('  ')
      .trimEnd();
  const header = line(columns.map((c) => paint(c.header, 'bold', color)));
  const body = texts.map((t) => line(t.map((text, i) => (columns[i].tone ? tone(text, color) : text))));
  return [header, ...body].join('\n') + '\n';
}

/** A record as `key  value` lines; nested objects one level deep as `key.sub`. */
export function renderRecord(record: Record<string, unknown>, color: boolean): string {
  const pairs: [string, unknown][] = [];
  for (const [key, value] of Object.entries(record)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length <= 12) {
      for (const [sub, inner] of Object.entries(value as Record<string, unknown>)) {
        pairs.push([`${key}.${sub}`, inner]);
      }
    } else {
      pairs.push([key, value]);
    }
  }
  if (pairs.length === 0) {
    return '';
  }
  const keyWidth = Math.max(...pairs.map(([k]) => k.length));
  return (
    pairs.map(([k, v]) => `${paint(k.padEnd(keyWidth), 'bold', color)}  ${tone(cell(v), color)}`).join('\n') + '\n'
  );
}

/** The JSON document of `--json`: indented on a terminal, one line otherwise (easy to pipe). */
export function renderJson(data: unknown, pretty: boolean): string {
  return JSON.stringify(data ?? null, null, pretty ? 2 : undefined) + '\n';
}

/** A byte count for people. */
export function bytes(n: number): string {
  if (!Number.isFinite(n)) {
    return '-';
  }
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
