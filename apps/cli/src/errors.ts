/**
 * Exit codes of the command line and the mapping from the API's answers to them. A script tells a
 * refusal (3), a missing resource (4) and a conflict (5) apart without reading stderr.
 */
import { ApiError } from '@app/client';

export const ExitCode = {
  Ok: 0,
  /** The API refused the request (validation, rules) or could not be reached. */
  ApiError: 1,
  /** The command line itself was wrong: unknown option, missing argument, bad value. */
  Usage: 2,
  /** Not signed in (401), or the account may not do this (403). */
  Unauthenticated: 3,
  NotFound: 4,
  Conflict: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the command line reports itself: a message for stderr and its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** The API's 4-digit code, when the failure is the API's. */
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A usage error (exit 2): the command line was wrong, no request was sent. */
export function usage(message: string): CliError {
  return new CliError(message, ExitCode.Usage);
}

/** The exit code of an HTTP status the API answered with. */
export function exitCodeForStatus(status: number): ExitCode {
  switch (status) {
    case 401:
    case 403:
      return ExitCode.Unauthenticated;
    case 404:
      return ExitCode.NotFound;
    case 409:
      return ExitCode.Conflict;
    default:
      return ExitCode.ApiError;
  }
}

/** The CliError of a failed API call: its message, its 4-digit code and the exit code of its status. */
export function fromApiError(error: ApiError, url?: string): CliError {
  let message = error.message;
  if (error.status === 0 && url) {
    message = `${message} (${url})`;
  } else if (error.status === 401) {
    message = `${message}: not signed in or the session has ended (run \`synthorg login\`)`;
  } else if (error.status === 403) {
    message = `${message}: this account's role may not do this`;
  }
  return new CliError(message, exitCodeForStatus(error.status), error.code || null);
}

/** Any thrown value as a CliError (unknown failures exit 1). */
export function toCliError(error: unknown, url?: string): CliError {
  if (error instanceof CliError) {
    return error;
  }
  if (error instanceof ApiError) {
    return fromApiError(error, url);
  }
  return new CliError(error instanceof Error ? error.message : String(error), ExitCode.ApiError);
}

const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;

/**
 * `text` with every secret in `secrets` and anything shaped like a signed token replaced by `***`:
 * whatever an error echoes (a URL with a ticket, a server message), no token reaches the terminal.
 */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) {
      out = out.split(secret).join('***');
    }
  }
  return out.replace(JWT, '***').replace(/([?&]ticket=)[^&\s]+/g, '$1***');
}

/** The stderr line of a failure: `synthorg: <message> (code <4 digits>)`. */
export function errorLine(error: CliError, secrets: readonly (string | null | undefined)[] = []): string {
  const code = error.code ? ` (code ${error.code})` : '';
  return `synthorg: ${redact(error.message, secrets)}${code}\n`;
}
