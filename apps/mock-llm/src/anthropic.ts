/** Anthropic Messages protocol under `/anthropic/v1`: model listing and messages (plain and streamed). */
import type { ServerResponse } from 'node:http';

import { bodyRecord, type RequestContext } from './context';
import { type ChatAnswer, errorMessage, readPrompt, resolveChat, retryAfterHeaders, splitPieces } from './conversation';
import { randomId, sendJson, startSse, writeSse } from './http';
import type { ErrorReply } from './types';

/** Anthropic error `type`, by status. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
};

/** Sends `{type: 'error', error: {type, message}}`. */
export function sendAnthropicError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const type = ERROR_TYPES[status] ?? 'api_error';
  sendJson(res, status, { type: 'error', error: { type, message } }, { ...headers, 'request-id': `req_${randomId()}` });
}

function sendScriptedError(res: ServerResponse, reply: ErrorReply): void {
  sendAnthropicError(res, reply.status, errorMessage(reply), retryAfterHeaders(reply));
}

/** A fixed creation date, so listings are stable. */
const CREATED_AT = '2025-01-01T00:00:00Z';

function displayName(id: string): string {
  return id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function listModels(ctx: RequestContext): void {
  const scripted = ctx.state.take('models');
  if (scripted?.kind === 'error') {
    sendScriptedError(ctx.res, scripted);
    return;
  }
  if (scripted?.kind === 'hang') {
    return;
  }
  const models = ctx.state.models();
  sendJson(ctx.res, 200, {
    data: models.map((id) => ({ type: 'model', id, display_name: displayName(id), created_at: CREATED_AT })),
    has_more: false,
    first_id: models.at(0) ?? null,
    last_id: models.at(-1) ?? null,
  });
}

type ContentBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function contentOf(answer: ChatAnswer): ContentBlock[] {
  if (answer.kind === 'text') {
    return [{ type: 'text', text: answer.text }];
  }
  return answer.calls.map((call) => ({
    type: 'tool_use',
    id: `toolu_${randomId()}`,
    name: call.name,
    input: call.arguments,
  }));
}

function messageBase(model: string): Record<string, unknown> {
  return { id: `msg_${randomId()}`, type: 'message', role: 'assistant', model, stop_sequence: null };
}

function stopReason(answer: ChatAnswer): 'end_turn' | 'tool_use' {
  return answer.kind === 'text' ? 'end_turn' : 'tool_use';
}

function sendMessage(res: ServerResponse, model: string, answer: ChatAnswer): void {
  sendJson(
    res,
    200,
    {
      ...messageBase(model),
      content: contentOf(answer),
      stop_reason: stopReason(answer),
      usage: { input_tokens: answer.inputTokens, output_tokens: answer.outputTokens },
    },
    { 'request-id': `req_${randomId()}` },
  );
}

function streamMessage(res: ServerResponse, model: string, answer: ChatAnswer): void {
  const send = (event: string, data: Record<string, unknown>): void => writeSse(res, { type: event, ...data }, event);
  startSse(res, { 'request-id': `req_${randomId()}` });
  send('message_start', {
    message: {
      ...messageBase(model),
      content: [],
      stop_reason: null,
      usage: { input_tokens: answer.inputTokens, output_tokens: 1 },
    },
  });
  contentOf(answer).forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (index === 0) {
        send('ping', {});
      }
      for (const text of splitPieces(block.text)) {
        send('content_block_delta', { index, delta: { type: 'text_delta', text } });
      }
    } else {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const partial_json of splitPieces(JSON.stringify(block.input))) {
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    send('content_block_stop', { index });
  });
  send('message_delta', {
    delta: { stop_reason: stopReason(answer), stop_sequence: null },
    usage: { output_tokens: answer.outputTokens },
  });
  send('message_stop', {});
  res.end();
}

function createMessage(ctx: RequestContext): void {
  const body = bodyRecord(ctx.body);
  const prompt = readPrompt(body, body.system);
  const outcome = resolveChat(ctx.state, prompt);
  switch (outcome.kind) {
    case 'hang':
      return;
    case 'error':
      sendScriptedError(ctx.res, outcome);
      return;
    case 'unknown_model':
      sendAnthropicError(ctx.res, 404, `model: ${outcome.model}`);
      return;
    case 'text':
    case 'tool_calls':
      break;
  }
  if (body.stream === true) {
    streamMessage(ctx.res, prompt.model, outcome);
  } else {
    sendMessage(ctx.res, prompt.model, outcome);
  }
}

/**
 * The key may come as `x-api-key` (the documented header) or as `Authorization: Bearer`, which is what
 * @anthropic-ai/sdk 1.x sends for its `apiKey` option.
 */
function authorized(ctx: RequestContext): boolean {
  const key = ctx.settings.apiKey;
  return key === null || ctx.headers['x-api-key'] === key || ctx.headers.authorization === `Bearer ${key}`;
}

/** Serves `/anthropic/v1/...`. */
export function handleAnthropic(ctx: RequestContext): boolean {
  const route = `${ctx.method} ${ctx.path}`;
  if (route !== 'GET /anthropic/v1/models' && route !== 'POST /anthropic/v1/messages') {
    return false;
  }
  if (!authorized(ctx)) {
    sendAnthropicError(ctx.res, 401, 'invalid x-api-key');
    return true;
  }
  if (route === 'GET /anthropic/v1/models') {
    listModels(ctx);
  } else {
    createMessage(ctx);
  }
  return true;
}
