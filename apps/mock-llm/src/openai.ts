/** OpenAI-compatible protocol under `/v1`: model listing, chat completions (plain and streamed), embeddings. */
import type { ServerResponse } from 'node:http';

import { bodyRecord, type RequestContext } from './context';
import { type ChatAnswer, errorMessage, readPrompt, resolveChat, retryAfterHeaders, splitPieces } from './conversation';
import { openAiEmbeddings } from './embeddings';
import { randomId, sendJson, startSse, unixSeconds, writeSse } from './http';
import type { ErrorReply } from './types';

/** `type` and `code` of OpenAI error bodies, by status. */
const ERROR_KINDS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'service_unavailable' },
};

/** Sends `{error: {message, type, code}}`. */
export function sendOpenAiError(
  res: ServerResponse,
  status: number,
  message: string,
  kind: { type: string; code: string | null } = ERROR_KINDS[status] ?? ERROR_KINDS[500],
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type: kind.type, param: null, code: kind.code } }, headers);
}

function sendScriptedError(res: ServerResponse, reply: ErrorReply): void {
  const headers = retryAfterHeaders(reply);
  if (reply.status === 429) {
    headers['x-ratelimit-reset-requests'] = `${reply.retryAfterSeconds ?? 1}s`;
    headers['x-ratelimit-remaining-requests'] = '0';
  }
  sendOpenAiError(res, reply.status, errorMessage(reply), undefined, headers);
}

function authorized(ctx: RequestContext): boolean {
  const key = ctx.settings.apiKey;
  return key === null || ctx.headers.authorization === `Bearer ${key}`;
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
  const created = unixSeconds();
  const data = ctx.state.models().map((id) => ({ id, object: 'model', created, owned_by: 'mock' }));
  sendJson(ctx.res, 200, { object: 'list', data });
}

/** The `tool_calls` of an assistant message, with fresh ids. */
function toolCalls(answer: Extract<ChatAnswer, { kind: 'tool_calls' }>): {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}[] {
  return answer.calls.map((call) => ({
    id: `call_${randomId()}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

function usageOf(answer: ChatAnswer): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return {
    prompt_tokens: answer.inputTokens,
    completion_tokens: answer.outputTokens,
    total_tokens: answer.inputTokens + answer.outputTokens,
  };
}

function sendCompletion(res: ServerResponse, model: string, answer: ChatAnswer): void {
  const calls = answer.kind === 'tool_calls' ? toolCalls(answer) : undefined;
  sendJson(res, 200, {
    id: `chatcmpl-${randomId()}`,
    object: 'chat.completion',
    created: unixSeconds(),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.kind === 'text' ? answer.text : null,
          refusal: null,
          ...(calls === undefined ? {} : { tool_calls: calls }),
        },
        logprobs: null,
        finish_reason: calls === undefined ? 'stop' : 'tool_calls',
      },
    ],
    usage: usageOf(answer),
  });
}

function streamCompletion(res: ServerResponse, model: string, answer: ChatAnswer, includeUsage: boolean): void {
  const base = { id: `chatcmpl-${randomId()}`, object: 'chat.completion.chunk', created: unixSeconds(), model };
  const usage = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): void =>
    writeSse(res, { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...usage });
  startSse(res);
  chunk({ role: 'assistant', content: answer.kind === 'text' ? '' : null });
  if (answer.kind === 'text') {
    for (const piece of splitPieces(answer.text)) {
      chunk({ content: piece });
    }
  } else {
    toolCalls(answer).forEach((call, index) => {
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      });
      for (const piece of splitPieces(call.function.arguments)) {
        chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    });
  }
  chunk({}, answer.kind === 'text' ? 'stop' : 'tool_calls');
  if (includeUsage) {
    writeSse(res, { ...base, choices: [], usage: usageOf(answer) });
  }
  writeSse(res, '[DONE]');
  res.end();
}

function chatCompletions(ctx: RequestContext): void {
  const body = bodyRecord(ctx.body);
  const prompt = readPrompt(body);
  const outcome = resolveChat(ctx.state, prompt);
  switch (outcome.kind) {
    case 'hang':
      return;
    case 'error':
      sendScriptedError(ctx.res, outcome);
      return;
    case 'unknown_model':
      sendOpenAiError(ctx.res, 404, `The model '${outcome.model}' does not exist or you do not have access to it.`, {
        type: 'invalid_request_error',
        code: 'model_not_found',
      });
      return;
    case 'text':
    case 'tool_calls':
      break;
  }
  if (body.stream === true) {
    const includeUsage = bodyRecord(body.stream_options).include_usage === true;
    streamCompletion(ctx.res, prompt.model, outcome, includeUsage);
  } else {
    sendCompletion(ctx.res, prompt.model, outcome);
  }
}

/** Serves `/v1/...`. */
export function handleOpenAi(ctx: RequestContext): boolean {
  const route = `${ctx.method} ${ctx.path}`;
  if (route !== 'GET /v1/models' && route !== 'POST /v1/chat/completions' && route !== 'POST /v1/embeddings') {
    return false;
  }
  if (!authorized(ctx)) {
    sendOpenAiError(ctx.res, 401, 'Incorrect API key provided (mock).');
    return true;
  }
  if (route === 'GET /v1/models') {
    listModels(ctx);
  } else if (route === 'POST /v1/embeddings') {
    openAiEmbeddings(ctx, (status, message) => sendOpenAiError(ctx.res, status, message));
  } else {
    chatCompletions(ctx);
  }
  return true;
}
