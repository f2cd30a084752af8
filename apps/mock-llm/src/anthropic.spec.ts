import Anthropic, { AuthenticationError, RateLimitError } from '@anthropic-ai/sdk';

import { startMockLlm } from './index';
import type { MockLlm } from './types';

describe('mock-llm Anthropic protocol (official SDK)', () => {
  let mock: MockLlm;
  let client: Anthropic;

  beforeEach(async () => {
    mock = await startMockLlm();
    client = new Anthropic({ baseURL: `${mock.url}/anthropic`, apiKey: 'unused', maxRetries: 0, timeout: 2000 });
  });

  afterEach(async () => {
    await mock.close();
  });

  it('should list the served models as one page', async () => {
    const page = await client.models.list();
    expect(page.data.map((model) => [model.type, model.id])).toEqual([
      ['model', 'mock-small'],
      ['model', 'mock-medium'],
      ['model', 'mock-large'],
    ]);
    expect(page.data[0].display_name).toBe('Mock Small');
    expect(page.hasNextPage()).toBe(false);
  });

  it('should answer text, counting the system prompt toward input tokens', async () => {
    const message = await client.messages.create({
      model: 'mock-large',
      max_tokens: 100,
      system: [{ type: 'text', text: 'system prompt!!' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'mock-large',
      content: [{ type: 'text', text: 'ack: hi' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      // 15 + 2 chars -> 5 tokens; 'ack: hi' -> 2 tokens.
      usage: { input_tokens: 5, output_tokens: 2 },
    });
    expect(mock.requests.at(-1)?.path).toBe('/anthropic/v1/messages');
  });

  it('should answer scripted tool_use blocks', async () => {
    mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'search', arguments: { query: 'cats' } }] });
    const message = await client.messages.create({
      model: 'mock-small',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'find cats' }],
    });
    expect(message.stop_reason).toBe('tool_use');
    const block = message.content[0];
    if (block.type !== 'tool_use') {
      throw new Error(`expected tool_use, got ${block.type}`);
    }
    expect(block.id).toMatch(/^toolu_/);
    expect(block.name).toBe('search');
    expect(block.input).toEqual({ query: 'cats' });
  });

  it('should stream text events that messages.stream accumulates', async () => {
    mock.enqueue({ kind: 'text', text: 'a streamed answer', inputTokens: 11, outputTokens: 4 });
    const stream = client.messages.stream({
      model: 'mock-small',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'go' }],
    });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('a streamed answer');
    expect(message.content).toEqual([{ type: 'text', text: 'a streamed answer' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 11, output_tokens: 4 });
  });

  it('should stream raw tool_use events with input_json_delta', async () => {
    mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'calc', arguments: { expr: '1+2', precise: true } }] });
    const stream = await client.messages.create({
      model: 'mock-small',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'add' }],
      stream: true,
    });
    const types: string[] = [];
    let json = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        json += event.delta.partial_json;
      }
      if (event.type === 'message_delta') {
        expect(event.delta.stop_reason).toBe('tool_use');
      }
    }
    expect(types[0]).toBe('message_start');
    expect(types).toContain('content_block_start');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(JSON.parse(json)).toEqual({ expr: '1+2', precise: true });
  });

  it('should surface a scripted 429 as RateLimitError in the Anthropic error shape', async () => {
    mock.enqueue({ kind: 'error', status: 429 });
    const error: unknown = await client.messages
      .create({ model: 'mock-small', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).error).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Rate limit exceeded (mock)' },
    });
    expect((error as RateLimitError).headers?.get('retry-after')).toBe('1');
  });

  it('should enforce the api key (SDK bearer or x-api-key header) when one is configured', async () => {
    await mock.close();
    mock = await startMockLlm({ apiKey: 'ant-key' });
    const wrong = new Anthropic({ baseURL: `${mock.url}/anthropic`, apiKey: 'nope', maxRetries: 0 });
    const error: unknown = await wrong.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    const right = new Anthropic({ baseURL: `${mock.url}/anthropic`, apiKey: 'ant-key', maxRetries: 0 });
    const message = await right.messages.create({
      model: 'mock-small',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'ok?' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'ack: ok?' }]);
    expect(mock.requests.at(-1)?.headers.authorization).toBe('Bearer ant-key');
    const viaHeader = new Anthropic({
      baseURL: `${mock.url}/anthropic`,
      apiKey: null,
      defaultHeaders: { 'x-api-key': 'ant-key' },
      maxRetries: 0,
    });
    const page = await viaHeader.models.list();
    expect(page.data).toHaveLength(3);
    expect(mock.requests.at(-1)?.headers['x-api-key']).toBe('ant-key');
  });
});
