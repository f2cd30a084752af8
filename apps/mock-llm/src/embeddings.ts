/**
 * Deterministic embeddings for both protocols: a hashed bag of words, L2-normalised, so texts that
 * share words are close and unrelated texts are near-orthogonal. OpenAI-compatible `POST /v1/embeddings`
 * (`data[].embedding`) and Ollama `POST /api/embed` (`embeddings`).
 */
import { bodyRecord, type RequestContext } from './context';
import { DEFAULT_ERROR_MESSAGES } from './conversation';
import { sendJson } from './http';

/** Vector size when the request asks for none. */
export const DEFAULT_EMBEDDING_DIMS = 256;
/** Largest vector the fake serves. */
const MAX_DIMS = 4096;

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The words of a text: lower-case runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The vector of one text: each word adds ±1 at its hashed position; the sum is normalised. */
export function embedText(text: string, dims: number = DEFAULT_EMBEDDING_DIMS): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of wordsOf(text)) {
    const h = hash(word);
    vector[h % dims] += h >>> 31 === 1 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

function inputsOf(value: unknown): string[] | null {
  if (typeof value === 'string') {
    return [value];
  }
  if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) {
    return value;
  }
  return null;
}

function dimsOf(value: unknown): number | null {
  if (value === undefined || value === null) {
    return DEFAULT_EMBEDDING_DIMS;
  }
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_DIMS ? value : null;
}

/** The request's model, texts and size, or the error message for a malformed body. */
export function parseEmbedRequest(body: unknown): { model: string; input: string[]; dims: number } | string {
  const record = bodyRecord(body);
  const input = inputsOf(record.input);
  const dims = dimsOf(record.dimensions);
  if (typeof record.model !== 'string' || record.model === '') {
    return 'model is required';
  }
  if (input === null) {
    return 'input must be a string or an array of strings';
  }
  if (dims === null) {
    return `dimensions must be an integer from 1 to ${MAX_DIMS}`;
  }
  return { model: record.model, input, dims };
}

/** Tokens the fake bills for the texts: one per word, at least one per text. */
export function embedTokens(input: readonly string[]): number {
  return input.reduce((sum, text) => sum + Math.max(1, wordsOf(text).length), 0);
}

/** Answers a scripted error or hang of the `embeddings` route, if one is queued; true when it did. */
function scripted(ctx: RequestContext, sendError: (status: number, message: string) => void): boolean {
  const reply = ctx.state.take('embeddings');
  if (reply?.kind === 'error') {
    sendError(reply.status, reply.message ?? DEFAULT_ERROR_MESSAGES[reply.status]);
    return true;
  }
  return reply?.kind === 'hang';
}

/** Serves OpenAI-compatible `POST /v1/embeddings`. */
export function openAiEmbeddings(ctx: RequestContext, sendError: (status: number, message: string) => void): void {
  if (scripted(ctx, sendError)) {
    return;
  }
  const request = parseEmbedRequest(ctx.body);
  if (typeof request === 'string') {
    sendError(400, request);
    return;
  }
  const tokens = embedTokens(request.input);
  sendJson(ctx.res, 200, {
    object: 'list',
    model: request.model,
    data: request.input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: embedText(text, request.dims),
    })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

/** Serves Ollama `POST /api/embed`. */
export function ollamaEmbed(ctx: RequestContext, sendError: (status: number, message: string) => void): void {
  if (scripted(ctx, sendError)) {
    return;
  }
  const request = parseEmbedRequest(ctx.body);
  if (typeof request === 'string') {
    sendError(400, request);
    return;
  }
  sendJson(ctx.res, 200, {
    model: request.model,
    embeddings: request.input.map((text) => embedText(text, request.dims)),
    total_duration: 1000,
    load_duration: 0,
    prompt_eval_count: embedTokens(request.input),
  });
}
