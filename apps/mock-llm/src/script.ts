/** Validation of scripted replies that arrive as JSON (`POST /__mock/script`). */
import type { MockErrorStatus, MockRoute, MockToolCall, ScriptedReply } from './types';

const ROUTES: readonly MockRoute[] = ['chat', 'models', 'pull'];
const ERROR_STATUSES: readonly MockErrorStatus[] = [429, 400, 401, 500, 503];

/** Thrown when a scripted reply is malformed; the message names the offending entry. */
export class ScriptError extends Error {
  override readonly name = 'ScriptError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalNumber(value: unknown, what: string): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ScriptError(`${what} must be a non-negative number`);
  }
  return value;
}

function parseCalls(value: unknown, at: string): MockToolCall[] {
  if (!Array.isArray(value)) {
    throw new ScriptError(`${at}.calls must be an array`);
  }
  return value.map((call, index) => {
    if (!isRecord(call) || typeof call.name !== 'string' || !isRecord(call.arguments)) {
      throw new ScriptError(`${at}.calls[${index}] needs a string name and an object arguments`);
    }
    return { name: call.name, arguments: call.arguments };
  });
}

function parseReply(value: unknown, index: number): ScriptedReply {
  const at = `script[${index}]`;
  if (!isRecord(value)) {
    throw new ScriptError(`${at} must be an object`);
  }
  const route = value.route ?? 'chat';
  if (!ROUTES.includes(route as MockRoute)) {
    throw new ScriptError(`${at}.route must be one of ${ROUTES.join(', ')}`);
  }
  const delayMs = optionalNumber(value.delayMs, `${at}.delayMs`);
  const base = { route: route as MockRoute, ...(delayMs === undefined ? {} : { delayMs }) };
  switch (value.kind) {
    case 'text':
      if (typeof value.text !== 'string') {
        throw new ScriptError(`${at}.text must be a string`);
      }
      return {
        ...base,
        kind: 'text',
        text: value.text,
        inputTokens: optionalNumber(value.inputTokens, `${at}.inputTokens`),
        outputTokens: optionalNumber(value.outputTokens, `${at}.outputTokens`),
      };
    case 'tool_calls':
      return { ...base, kind: 'tool_calls', calls: parseCalls(value.calls, at) };
    case 'error':
      if (!ERROR_STATUSES.includes(value.status as MockErrorStatus)) {
        throw new ScriptError(`${at}.status must be one of ${ERROR_STATUSES.join(', ')}`);
      }
      if (value.message !== undefined && typeof value.message !== 'string') {
        throw new ScriptError(`${at}.message must be a string`);
      }
      return {
        ...base,
        kind: 'error',
        status: value.status as MockErrorStatus,
        message: value.message,
        retryAfterSeconds: optionalNumber(value.retryAfterSeconds, `${at}.retryAfterSeconds`),
      };
    case 'hang':
      return { ...base, kind: 'hang' };
    default:
      throw new ScriptError(`${at}.kind must be one of text, tool_calls, error, hang`);
  }
}

/** Parses a JSON array (or a single object) of scripted replies. */
export function parseScript(value: unknown): ScriptedReply[] {
  const entries = Array.isArray(value) ? value : [value];
  return entries.map(parseReply);
}
