import OpenAI, { RateLimitError } from 'openai';

import { startMockLlm } from './index';
import type { MockLlm } from './types';

describe('mock-llm OpenAI protocol (official SDK)', () => {
  let mock: MockLlm;
  let client: OpenAI;

  beforeEach(async () => {
    mock = await startMockLlm();
    client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 2000 });
  });

  afterEach(async () => {
    await mock.close();
  });

  it('should list the served models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      ids.push(model.id);
      expect(model.owned_by).toBe('mock');
    }
    expect(ids).toEqual(['mock-small', 'mock-medium', 'mock-large']);
  });

  it('should echo the last user message with estimated usage by default', async () => {
    const completion = await client.chat.completions.create({
      model: 'mock-small',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('mock-small');
    expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: 'ack: hello there' });
    expect(completion.choices[0].finish_reason).toBe('stop');
    // 'be brief' + 'hello there' = 19 chars -> 5 tokens; 'ack: hello there' = 16 chars -> 4 tokens.
    expect(completion.usage).toEqual({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
    expect(mock.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
  });

  it('should answer scripted tool calls with JSON-string arguments', async () => {
    mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'lookup', arguments: { q: 'weather', days: 2 } }] });
    const completion = await client.chat.completions.create({
      model: 'mock-medium',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    const choice = completion.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    expect(call?.id).toMatch(/^call_/);
    if (call?.type !== 'function') {
      throw new Error('expected a function call');
    }
    expect(call.function.name).toBe('lookup');
    expect(JSON.parse(call.function.arguments)).toEqual({ q: 'weather', days: 2 });
  });

  it('should stream content deltas, a finish chunk, a usage chunk and [DONE]', async () => {
    mock.enqueue({ kind: 'text', text: 'streamed reply text', inputTokens: 7, outputTokens: 3 });
    const stream = await client.chat.completions.create({
      model: 'mock-small',
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    const finishReasons: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      for (const choice of chunk.choices) {
        pieces.push(choice.delta.content ?? '');
        if (choice.finish_reason) {
          finishReasons.push(choice.finish_reason);
        }
      }
      usage = chunk.usage ?? usage;
    }
    expect(pieces.filter((piece) => piece !== '').length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('streamed reply text');
    expect(finishReasons).toEqual(['stop']);
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  });

  it('should stream tool calls that the SDK stream helper reassembles', async () => {
    mock.enqueue({
      kind: 'tool_calls',
      calls: [
        { name: 'first', arguments: { a: 1 } },
        { name: 'second', arguments: { b: 'two' } },
      ],
    });
    const stream = client.chat.completions.stream({ model: 'mock-small', messages: [{ role: 'user', content: 'x' }] });
    const final = await stream.finalChatCompletion();
    const calls = final.choices[0].message.tool_calls ?? [];
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(
      calls.map((call) => (call.type === 'function' ? [call.function.name, call.function.arguments] : [])),
    ).toEqual([
      ['first', '{"a":1}'],
      ['second', '{"b":"two"}'],
    ]);
  });

  it('should surface a scripted 429 as RateLimitError with retry headers', async () => {
    mock.enqueue({ kind: 'error', status: 429, message: 'slow down', retryAfterSeconds: 3 });
    const error: unknown = await client.chat.completions
      .create({ model: 'mock-small', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    const rateLimit = error as RateLimitError;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.message).toContain('slow down');
    expect(rateLimit.headers?.get('retry-after')).toBe('3');
    expect(rateLimit.headers?.get('x-ratelimit-reset-requests')).toBe('3s');
  });

  it('should fail the mock-error-500 trigger model and 404 an unknown model', async () => {
    await expect(
      client.chat.completions.create({ model: 'mock-error-500', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 500 });
    await expect(
      client.chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('should require the bearer key when one is configured', async () => {
    await mock.close();
    mock = await startMockLlm({ apiKey: 'sk-mock' });
    const wrong = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const right = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-mock', maxRetries: 0 });
    const page = await right.models.list();
    expect(page.data).toHaveLength(3);
  });
});
