import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { AppError, type ChatChunk, type LlmDriver, type ProviderProtocol } from '@app/domain';
import { type MockLlm, startMockLlm } from '../../../../../mock-llm/src';

import type { ProviderRecord } from '../provider-record';
import { claudeGeneration, toAnthropicMessages } from './anthropic.driver';
import { createDriver } from './driver-factory';

const KEY = 'sk-driver-test-key';

function record(protocol: ProviderProtocol, endpoint: string, extra: Partial<ProviderRecord> = {}): ProviderRecord {
  const now = new Date();
  return {
    name: `p-${protocol}`,
    preset: null,
    gatewayProviderSetting: null,
    gatewayProvider: protocol,
    family: null,
    authType: 'api_key',
    baseUrl: endpoint,
    endpoint,
    protocol,
    models: [],
    degradation: { strategy: 'alert', fallbackProviders: [], queueMaxWaitSeconds: 300 },
    quota: {},
    secrets: { apiKey: KEY },
    oauth: { tokenUrl: null, clientId: null, scope: null },
    customHeaderName: null,
    tosAcceptedAt: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

async function caught(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a failure');
}

async function collect(stream: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const chunks: ChatChunk[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk);
  }
  return chunks;
}

describe('provider drivers against the fake provider', () => {
  let mock: MockLlm;
  const endpoints = (): Record<ProviderProtocol, string> => ({
    openai_compatible: `${mock.url}/v1`,
    anthropic: `${mock.url}/anthropic`,
    ollama: mock.url,
  });
  const driverFor = (protocol: ProviderProtocol, extra: Partial<ProviderRecord> = {}, timeoutMs = 5000): LlmDriver =>
    createDriver(record(protocol, endpoints()[protocol], extra), { maxRetries: 0, timeoutMs });

  beforeAll(async () => {
    mock = await startMockLlm({ apiKey: KEY });
  });

  afterEach(() => {
    mock.reset();
  });

  afterAll(async () => {
    await mock.close();
  });

  describe.each<ProviderProtocol>(['openai_compatible', 'anthropic', 'ollama'])('%s', (protocol) => {
    it('should complete a chat with content, token usage and the stop reason', async () => {
      const result = await driverFor(protocol).chat({
        model: 'mock-small',
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'hello there' },
        ],
      });
      expect(result).toMatchObject({ content: 'ack: hello there', finishReason: 'stop', toolCalls: [] });
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
    });

    it('should surface scripted tool calls with parsed arguments', async () => {
      mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'read_file', arguments: { path: 'README.md' } }] });
      const result = await driverFor(protocol).chat({
        model: 'mock-small',
        messages: [{ role: 'user', content: 'read it' }],
        tools: [
          {
            name: 'read_file',
            description: 'Read a file',
            parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          },
        ],
      });
      expect(result.finishReason).toBe('tool_calls');
      expect(result.toolCalls).toEqual([
        { id: expect.any(String), name: 'read_file', arguments: { path: 'README.md' } },
      ]);
    });

    it('should send a tool result back in the protocol shape and continue', async () => {
      const result = await driverFor(protocol).chat({
        model: 'mock-small',
        messages: [
          { role: 'user', content: 'read it' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a' } }],
          },
          { role: 'tool', toolCallId: 'call_1', name: 'read_file', content: 'file text' },
          { role: 'user', content: 'summarise' },
        ],
      });
      // The fake echoes the last user turn; Anthropic carries the tool result in that same turn.
      expect(result.content).toMatch(/^ack: .*summarise$/);
    });

    it('should stream text pieces and end with the whole result and usage', async () => {
      const chunks = await collect(
        driverFor(protocol).stream({ model: 'mock-small', messages: [{ role: 'user', content: 'stream me' }] }),
      );
      const text = chunks.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
      const done = chunks.at(-1);
      expect(text).toBe('ack: stream me');
      expect(done?.type).toBe('done');
      if (done?.type === 'done') {
        expect(done.result.content).toBe('ack: stream me');
        expect(done.result.usage.outputTokens).toBeGreaterThan(0);
      }
    });

    it('should list the models', async () => {
      expect((await driverFor(protocol).listModels()).map((m) => m.id)).toEqual(
        expect.arrayContaining(['mock-small', 'mock-medium', 'mock-large']),
      );
    });

    it.each([
      [429, 7010, true],
      [500, 7003, true],
    ])('should map a %s from the provider to %s (retryable %s)', async (status, code, retryable) => {
      mock.enqueue({ kind: 'error', status: status as 429 | 500, retryAfterSeconds: 7 });
      const error = await caught(
        driverFor(protocol).chat({ model: 'mock-small', messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error.code).toBe(code);
      expect(error.retryable).toBe(retryable);
      if (status === 429) {
        // The Ollama client does not expose response headers; its 429s retry after the 1 s default.
        expect(error.retryAfterSec).toBe(protocol === 'ollama' ? 1 : 7);
      }
    });

    it('should map a hanging provider to a retryable timeout (7001)', async () => {
      mock.enqueue({ kind: 'hang' });
      const error = await caught(
        driverFor(protocol, {}, 300).chat({ model: 'mock-small', messages: [{ role: 'user', content: 'x' }] }),
      );
      expect(error.code).toBe(7001);
      expect(error.retryable).toBe(true);
    });
  });

  it.each<ProviderProtocol>(['openai_compatible', 'anthropic'])(
    '%s: should map a rejected key to 7004',
    async (protocol) => {
      const error = await caught(
        driverFor(protocol, { secrets: { apiKey: 'wrong' } }).chat({
          model: 'mock-small',
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(error.code).toBe(7004);
      expect(error.retryable).toBe(false);
    },
  );

  it.each<[ProviderProtocol, string]>([
    ['openai_compatible', '/v1/embeddings'],
    ['ollama', '/api/embed'],
  ])('should embed texts on the %s wire endpoint (%s), one vector per text in order', async (protocol, path) => {
    const driver = driverFor(protocol);
    const result = await driver.embed!({ model: 'mock-embed', input: ['alpha beta', 'gamma'], dimensions: 16 });
    expect(result.vectors).toHaveLength(2);
    expect(result.vectors.every((v) => v.length === 16)).toBe(true);
    expect(result.vectors[0]).not.toEqual(result.vectors[1]);
    expect(result.inputTokens).toBe(3);
    expect(mock.requests.at(-1)).toMatchObject({
      method: 'POST',
      path,
      body: { model: 'mock-embed', input: ['alpha beta', 'gamma'], dimensions: 16 },
    });
  });

  it('should offer no embeddings on the Anthropic protocol', () => {
    expect(driverFor('anthropic').embed).toBeUndefined();
  });

  it('should map an unreachable provider to a retryable connection error (7002)', async () => {
    const closed = await startMockLlm();
    const url = `${closed.url}/v1`;
    await closed.close();
    const driver = createDriver(record('openai_compatible', url), { maxRetries: 0, timeoutMs: 2000 });
    const error = await caught(driver.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    expect(error.code).toBe(7002);
    expect(error.retryable).toBe(true);
  });

  it('should retry a 429 with backoff when retries are allowed', async () => {
    mock.enqueue({ kind: 'error', status: 429, retryAfterSeconds: 0 });
    const driver = createDriver(record('openai_compatible', `${mock.url}/v1`), { maxRetries: 2, timeoutMs: 5000 });
    const result = await driver.chat({ model: 'mock-small', messages: [{ role: 'user', content: 'again' }] });
    expect(result.content).toBe('ack: again');
    expect(mock.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);
  });

  it('should send a custom header in place of a key, and no bearer token', async () => {
    const driver = createDriver(
      record('ollama', mock.url, {
        authType: 'custom_header',
        secrets: { customHeaderValue: 'header-secret' },
        customHeaderName: 'X-Gateway-Key',
      }),
      { maxRetries: 0, timeoutMs: 5000 },
    );
    await driver.chat({ model: 'mock-small', messages: [{ role: 'user', content: 'x' }] });
    const last = mock.requests.at(-1)!;
    expect(last.headers['x-gateway-key']).toBe('header-secret');
    expect(last.headers.authorization).toBeUndefined();
  });

  describe('OAuth client credentials', () => {
    let tokenServer: Server;
    let tokenUrl: string;
    let grants = 0;

    beforeAll(async () => {
      tokenServer = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          if (form.get('client_secret') !== 'oauth-secret') {
            res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
            return;
          }
          grants += 1;
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ access_token: KEY, token_type: 'bearer', expires_in: 3600 }));
        });
      });
      await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
      tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
    });

    afterAll(async () => {
      await new Promise((resolve) => tokenServer.close(resolve));
    });

    it('should fetch a token once, cache it, and use it as the bearer credential', async () => {
      const driver = createDriver(
        record('openai_compatible', `${mock.url}/v1`, {
          authType: 'oauth',
          secrets: { oauthClientSecret: 'oauth-secret' },
          oauth: { tokenUrl, clientId: 'client', scope: 'models' },
        }),
        { maxRetries: 0, timeoutMs: 5000 },
      );
      await driver.chat({ model: 'mock-small', messages: [{ role: 'user', content: 'one' }] });
      await driver.chat({ model: 'mock-small', messages: [{ role: 'user', content: 'two' }] });
      expect(grants).toBe(1);
    });

    it('should report a refused client as an OAuth error (7008)', async () => {
      const driver = createDriver(
        record('openai_compatible', `${mock.url}/v1`, {
          authType: 'oauth',
          secrets: { oauthClientSecret: 'wrong' },
          oauth: { tokenUrl, clientId: 'client', scope: null },
        }),
        { maxRetries: 0, timeoutMs: 5000 },
      );
      expect((await caught(driver.listModels())).code).toBe(7008);
    });
  });
});

describe('Anthropic message shaping', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 4.5],
    ['claude-opus-4-1-20250805', 4.1],
    ['claude-sonnet-4-20250514', 4],
    ['claude-3-5-sonnet-20241022', 3.5],
    ['claude-haiku-4-5', 4.5],
    ['mock-small', null],
  ])('should read the generation of %s as %s', (id, generation) => {
    expect(claudeGeneration(id)).toBe(generation);
  });

  it('should lift system text out and merge consecutive turns of one role', () => {
    const shaped = toAnthropicMessages([
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 't1', name: 'a', arguments: {} },
          { id: 't2', name: 'b', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 't1', name: 'a', content: 'A' },
      { role: 'tool', toolCallId: 't2', name: 'b', content: 'B', isError: true },
    ]);
    expect(shaped.system).toBe('rules');
    expect(shaped.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(shaped.messages[2].content).toHaveLength(2);
  });
});
