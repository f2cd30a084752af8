import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { APIConnectionError } from 'openai';

import { estimateTokens } from './conversation';
import { optionsFromEnv } from './env';
import { startMockLlm } from './index';
import type { MockLlm } from './types';

async function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** A bound far above the normal time of something that would otherwise never end, and the test's own. */
const LIVENESS_BOUND_MS = 10_000;
const LIVENESS_TEST_TIMEOUT_MS = 3 * LIVENESS_BOUND_MS;

describe('mock-llm server', () => {
  let mock: MockLlm;

  beforeEach(async () => {
    mock = await startMockLlm();
  });

  afterEach(async () => {
    await mock.close();
  });

  it('should bind an ephemeral loopback port and expose it in the url', () => {
    expect(mock.port).toBeGreaterThan(0);
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
  });

  // A hang never answers on its own, so these tests check that the request or close() settles at all,
  // against a bound far above its normal time: they must not fail because the machine is busy.
  it(
    'should let a scripted hang end by client timeout and still close while another request hangs',
    async () => {
      mock.enqueue({ kind: 'hang' });
      const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'x', maxRetries: 0, timeout: 150 });
      // Outside jest this is APIConnectionTimeoutError; jest's separate realm hides the AbortError's class from
      // the SDK, which then reports the plain APIConnectionError it extends.
      const timedOut = client.chat.completions
        .create({ model: 'mock-small', messages: [{ role: 'user', content: 'hi' }] })
        .catch((error: unknown) => error);
      expect(await settlesWithin(timedOut, LIVENESS_BOUND_MS)).toBe(true);
      expect(await timedOut).toBeInstanceOf(APIConnectionError);
      // A second request left hanging (trigger model, no client timeout) must not hold close() up.
      const anthropic = new Anthropic({ baseURL: `${mock.url}/anthropic`, apiKey: 'x', maxRetries: 0 });
      const pending = anthropic.messages
        .create({ model: 'mock-hang', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })
        .catch((error: unknown) => error);
      await waitFor(() => mock.requests.length === 2);
      expect(await settlesWithin(mock.close(), LIVENESS_BOUND_MS)).toBe(true);
      expect(await pending).toBeInstanceOf(Error);
    },
    LIVENESS_TEST_TIMEOUT_MS,
  );

  it(
    'should close promptly while a pull is still streaming',
    async () => {
      await mock.close();
      mock = await startMockLlm({ pullSteps: 1000, pullStepDelayMs: 50 });
      const response = await postJson(`${mock.url}/api/pull`, { model: 'slow', stream: true });
      expect(response.status).toBe(200);
      // The pull alone would stream for 50 s.
      expect(await settlesWithin(mock.close(), LIVENESS_BOUND_MS)).toBe(true);
      await expect(response.text()).rejects.toThrow();
      expect(mock.models()).not.toContain('slow');
    },
    LIVENESS_TEST_TIMEOUT_MS,
  );

  it('should enqueue through POST /__mock/script and list requests through GET /__mock/requests', async () => {
    const scripted = await postJson(`${mock.url}/__mock/script`, [
      { kind: 'text', text: 'from script' },
      { route: 'models', kind: 'error', status: 500, message: 'listing broke' },
    ]);
    expect(await scripted.json()).toEqual({ queued: 2 });
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'x', maxRetries: 0 });
    await expect(client.models.list()).rejects.toMatchObject({ status: 500, message: '500 listing broke' });
    const completion = await client.chat.completions.create({
      model: 'mock-small',
      messages: [{ role: 'user', content: 'q' }],
    });
    expect(completion.choices[0].message.content).toBe('from script');
    const recorded = (await (await fetch(`${mock.url}/__mock/requests`)).json()) as { method: string; path: string }[];
    expect(recorded.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/models',
      'POST /v1/chat/completions',
    ]);
    expect(mock.requests[1].headers['content-type']).toBe('application/json');
    expect(mock.requests[1].body).toMatchObject({ model: 'mock-small', messages: [{ role: 'user', content: 'q' }] });
  });

  it('should reject a malformed script with 400 and reset through POST /__mock/reset', async () => {
    const bad = await postJson(`${mock.url}/__mock/script`, [{ kind: 'error', status: 418 }]);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'script[0].status must be one of 429, 400, 401, 500, 503' });
    mock.enqueue({ kind: 'text', text: 'never used' });
    await fetch(`${mock.url}/api/tags`);
    await fetch(`${mock.url}/api/delete`, { method: 'DELETE', body: JSON.stringify({ model: 'mock-small' }) });
    expect(mock.requests).toHaveLength(2);
    const reset = await postJson(`${mock.url}/__mock/reset`, {});
    expect(await reset.json()).toEqual({ ok: true });
    expect(mock.requests).toHaveLength(0);
    expect(mock.models()).toEqual(['mock-small', 'mock-medium', 'mock-large']);
    const reply = await postJson(`${mock.url}/api/chat`, {
      model: 'mock-small',
      stream: false,
      messages: [{ role: 'user', content: 'after reset' }],
    });
    expect(((await reply.json()) as { message: { content: string } }).message.content).toBe('ack: after reset');
  });

  it('should record a delayed reply at once and answer it only after its delay, once', async () => {
    await postJson(`${mock.url}/__mock/script`, [{ kind: 'text', text: 'slow', delayMs: 600 }]);
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const started = Date.now();
    let answered = false;
    const slow = client.chat.completions
      .create({ model: 'mock-small', messages: [{ role: 'user', content: 'q' }] })
      .finally(() => (answered = true));
    await waitFor(() => mock.requests.length === 1);
    // Recorded, not answered: a test may act while the call is in flight.
    expect(answered).toBe(false);
    expect((await slow).choices[0].message.content).toBe('slow');
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    // The next reply (the default one) is not delayed again.
    const next = Date.now();
    await client.chat.completions.create({ model: 'mock-small', messages: [{ role: 'user', content: 'q' }] });
    expect(Date.now() - next).toBeLessThan(590);
    const bad = await postJson(`${mock.url}/__mock/script`, [{ kind: 'text', text: 'x', delayMs: -1 }]);
    expect(await bad.json()).toEqual({ error: 'script[0].delayMs must be a non-negative number' });
  });

  it('should answer concurrent requests each with the delayed reply it took on arrival', async () => {
    await postJson(`${mock.url}/__mock/script`, [
      { kind: 'text', text: 'first', delayMs: 400 },
      { kind: 'text', text: 'second', delayMs: 400 },
    ]);
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({ model: 'mock-small', messages: [{ role: 'user', content: 'q' }] });
    const started = Date.now();
    const first = ask();
    await waitFor(() => mock.requests.length === 1);
    const second = ask();
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.choices[0].message.content)).toEqual(['first', 'second']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('should echo only the first 200 characters of the last user message', async () => {
    const long = 'x'.repeat(250);
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'mock-small',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: long }] },
      ],
    });
    expect(completion.choices[0].message.content).toBe(`ack: ${'x'.repeat(200)}`);
    expect(completion.usage).toMatchObject({ prompt_tokens: Math.ceil(257 / 4), completion_tokens: 52 });
  });

  it('should estimate ceil(chars / 4) tokens with a minimum of 1', () => {
    expect(estimateTokens('')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('should fail the mock-error-429 trigger on every protocol with retry-after', async () => {
    const openai = await postJson(`${mock.url}/v1/chat/completions`, { model: 'mock-error-429', messages: [] });
    expect(openai.status).toBe(429);
    expect(openai.headers.get('retry-after')).toBe('1');
    expect(((await openai.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    const anthropic = await postJson(`${mock.url}/anthropic/v1/messages`, { model: 'mock-error-429', messages: [] });
    expect(((await anthropic.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
    const ollama = await postJson(`${mock.url}/api/chat`, { model: 'mock-error-429', messages: [] });
    expect(ollama.status).toBe(429);
    expect(await ollama.json()).toEqual({ error: 'Rate limit exceeded (mock-error-429)' });
  });

  it('should answer 404 JSON on any other path', async () => {
    for (const path of ['/nope', '/v1/embeddings', '/anthropic/v1/complete', '/api/generate']) {
      const response = await fetch(`${mock.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toHaveProperty('error');
    }
  });
});

describe('mock-llm standalone options', () => {
  it('should read defaults and overrides from the environment', () => {
    expect(optionsFromEnv({})).toEqual({ host: '127.0.0.1', port: 11500, models: undefined, apiKey: null });
    expect(
      optionsFromEnv({
        MOCK_LLM_PORT: '0',
        MOCK_LLM_HOST: '::1',
        MOCK_LLM_MODELS: 'a, b,,c',
        MOCK_LLM_API_KEY: 'k',
      }),
    ).toEqual({ host: '::1', port: 0, models: ['a', 'b', 'c'], apiKey: 'k' });
    expect(() => optionsFromEnv({ MOCK_LLM_PORT: 'abc' })).toThrow('MOCK_LLM_PORT');
  });
});

/** Whether the promise settles before the bound; the timer is cleared either way. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), bound]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
