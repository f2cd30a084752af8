/**
 * What every command works with: the resolved profile, the typed API client, and the printer that
 * honours `--json`, `--quiet` and colour. Commands are thin: one or a few API calls, then `print`.
 */
import { type ApiClient, ApiError, createApiClient, unwrap, unwrapPage } from '@app/client';

import { configPath, type ConfigFile, readConfig, type Resolved, resolveProfile, writeConfig } from './config';
import { CliError, ExitCode } from './errors';
import { cell, type Column, colorWanted, type OutputMode, renderJson, renderRecord, renderTable } from './output';

export { unwrap, unwrapPage, ApiError };

/** The options every command accepts (declared once on the program). */
export interface GlobalOptions {
  profile?: string;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export class Context {
  readonly mode: OutputMode;
  readonly configFile: string;
  private config: ConfigFile | null = null;
  private resolved: Resolved | null = null;
  private api: ApiClient | null = null;

  constructor(
    readonly options: GlobalOptions,
    readonly io: Io,
  ) {
    if (options.json && options.quiet) {
      throw new CliError('--json and --quiet exclude each other', ExitCode.Usage);
    }
    this.mode = {
      json: options.json === true,
      quiet: options.quiet === true,
      color: colorWanted(io.stdout.isTTY === true, io.env, options.color !== false),
    };
    this.configFile = configPath(io.env);
  }

  loadConfig(): ConfigFile {
    return (this.config ??= readConfig(this.configFile));
  }

  saveConfig(config: ConfigFile): void {
    writeConfig(this.configFile, config);
    this.config = config;
    this.resolved = null;
    this.api = null;
  }

  get profile(): Resolved {
    return (this.resolved ??= resolveProfile(this.loadConfig(), this.options.profile, this.io.env));
  }

  /** The client of the profile's server, sending its token (if any) as a bearer token. */
  get client(): ApiClient {
    if (!this.api) {
      const { url } = this.profile;
      this.api = createApiClient({ baseUrl: url, token: () => this.profile.token });
    }
    return this.api;
  }

  /** A client of another server or token (login, setup), never stored. */
  clientFor(url: string, token: string | null): ApiClient {
    return createApiClient({ baseUrl: url, token: () => token });
  }

  /** Secrets that must never be printed: the token in use. */
  get secrets(): string[] {
    const token = this.resolved?.token ?? this.io.env.SYNTHORG_TOKEN;
    return token ? [token] : [];
  }

  out(text: string): void {
    this.io.stdout.write(text);
  }

  /** A line for people on stderr (never in --json or --quiet output). */
  note(text: string): void {
    if (!this.mode.json && !this.mode.quiet) {
      this.io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
    }
  }

  /** A list: a table, the items as JSON, or their ids. */
  list<T>(items: readonly T[], columns: readonly Column<T>[], id: (row: T) => unknown, total?: number): void {
    if (this.mode.json) {
      this.out(renderJson(items, this.io.stdout.isTTY === true));
    } else if (this.mode.quiet) {
      this.out(items.map((row) => `${cell(id(row))}\n`).join(''));
    } else {
      this.out(renderTable(items, columns, this.mode.color));
      if (total !== undefined && total > items.length) {
        this.note(`${items.length} of ${total} shown (--limit, --offset for more)`);
      }
    }
  }

  /** One resource: a record, the resource as JSON, or its id. */
  show(data: unknown, id?: (data: never) => unknown, human?: (data: never) => Record<string, unknown>): void {
    if (this.mode.json) {
      this.out(renderJson(data, this.io.stdout.isTTY === true));
    } else if (this.mode.quiet) {
      const value = id ? id(data as never) : undefined;
      if (value !== undefined && value !== null) {
        this.out(`${cell(value)}\n`);
      }
    } else if (data && typeof data === 'object') {
      const record = human ? human(data as never) : (data as Record<string, unknown>);
      this.out(renderRecord(record, this.mode.color));
    } else if (data !== undefined && data !== null) {
      this.out(`${cell(data)}\n`);
    }
  }

  /** A short confirmation for people; `--json` prints `data` instead, `--quiet` the id. */
  done(message: string, data: unknown = null, id?: unknown): void {
    if (this.mode.json) {
      this.out(renderJson(data, this.io.stdout.isTTY === true));
    } else if (this.mode.quiet) {
      if (id !== undefined && id !== null) {
        this.out(`${cell(id)}\n`);
      }
    } else {
      this.out(`${message}\n`);
    }
  }

  /**
   * Runs `work` with a spinner and `label` on stderr when stderr is a terminal and the output is for
   * people; otherwise just runs it.
   */
  async progress<T>(label: string, work: (update: (label: string) => void) => Promise<T>): Promise<T> {
    const stream = this.io.stderr;
    if (!stream.isTTY || this.mode.json || this.mode.quiet) {
      return work(() => undefined);
    }
    const frames = ['|', '/', '-', '\\'];
    let frame = 0;
    let text = label;
    const started = Date.now();
    const draw = () => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      stream.write(`\r\u001b[2K${frames[frame++ % frames.length]} ${text} (${seconds} s)`);
    };
    draw();
    const timer = setInterval(draw, 120);
    try {
      return await work((next) => {
        text = next;
        draw();
      });
    } finally {
      clearInterval(timer);
      stream.write('\r\u001b[2K');
    }
  }
}

/** Common list flags, as the API's query. */
export function paging(options: { limit?: string; offset?: string }): { limit?: number; offset?: number } {
  return {
    ...(options.limit !== undefined ? { limit: integer(options.limit, '--limit', 1) } : {}),
    ...(options.offset !== undefined ? { offset: integer(options.offset, '--offset', 0) } : {}),
  };
}

/** A whole number of at least `min`, else a usage error naming the flag. */
export function integer(raw: string, flag: string, min = 0): number {
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new CliError(`${flag} must be a whole number of at least ${min}: ${raw}`, ExitCode.Usage);
  }
  return value;
}

/** A number, else a usage error naming the flag. */
export function number(raw: string, flag: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) {
    throw new CliError(`${flag} must be a number: ${raw}`, ExitCode.Usage);
  }
  return value;
}

/** A comma-separated list without empty entries. */
export function commaList(raw: string | undefined): string[] | undefined {
  if (raw === undefined) {
    return undefined;
  }
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
