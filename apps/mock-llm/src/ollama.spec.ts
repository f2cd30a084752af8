import { type ChatResponse, Ollama } from 'ollama';

import { startMockLlm } from './index';
import type { MockLlm } from './types';

describe('mock-llm Ollama protocol (official client)', () => {
  let mock: MockLlm;
  let ollama: Ollama;

  beforeEach(async () => {
    mock = await startMockLlm({ pullSteps: 3, pullStepDelayMs: 5 });
    ollama = new Ollama({ host: mock.url });
  });

  afterEach(async () => {
    await mock.close();
  });

  it('should report a version and list the models with details', async () => {
    expect((await ollama.version()).version).toMatch(/^\d+\.\d+\.\d+/);
    const { models } = await ollama.list();
    expect(models.map((model) => model.name)).toEqual(['mock-small', 'mock-medium', 'mock-large']);
    expect(models[0]).toMatchObject({
      model: 'mock-small',
      details: { format: 'gguf', family: 'mock', parameter_size: '1B', quantization_level: 'Q4_K_M' },
    });
    expect(models[0].digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('should show a model and 404 an unknown one', async () => {
    const shown = await ollama.show({ model: 'mock-medium' });
    // The client types model_info as a Map, but on the wire (and after response.json()) it is a plain object.
    expect((shown.model_info as unknown as Record<string, unknown>)['general.context_length']).toBe(8192);
    expect(shown.capabilities).toEqual(['completion', 'tools']);
    expect(shown.details.format).toBe('gguf');
    await expect(ollama.show({ model: 'nope' })).rejects.toMatchObject({
      name: 'ResponseError',
      status_code: 404,
      error: "model 'nope' not found",
    });
  });

  it('should chat without streaming, echoing with eval counts', async () => {
    const reply = await ollama.chat({
      model: 'mock-small',
      messages: [{ role: 'user', content: 'how are you' }],
      stream: false,
    });
    expect(reply.message).toEqual({ role: 'assistant', content: 'ack: how are you' });
    expect(reply).toMatchObject({ done: true, done_reason: 'stop', prompt_eval_count: 3, eval_count: 4 });
    expect(mock.requests.at(-1)?.body).toMatchObject({ stream: false });
  });

  it('should stream chat chunks ending with done and the counts', async () => {
    mock.enqueue({ kind: 'text', text: 'one two three four', inputTokens: 9, outputTokens: 5 });
    const stream = await ollama.chat({
      model: 'mock-small',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
    });
    const parts: string[] = [];
    let last: ChatResponse | undefined;
    for await (const chunk of stream) {
      parts.push(chunk.message.content);
      last = chunk;
    }
    expect(parts.filter((part) => part !== '').length).toBeGreaterThan(1);
    expect(parts.join('')).toBe('one two three four');
    expect(last).toMatchObject({ done: true, done_reason: 'stop', prompt_eval_count: 9, eval_count: 5 });
  });

  it('should answer scripted tool calls with object arguments', async () => {
    mock.enqueue({ kind: 'tool_calls', calls: [{ name: 'get_time', arguments: { tz: 'UTC' } }] });
    const reply = await ollama.chat({ model: 'mock-large', messages: [{ role: 'user', content: 'time?' }] });
    expect(reply.message.tool_calls).toEqual([{ function: { name: 'get_time', arguments: { tz: 'UTC' } } }]);
  });

  it('should stream pull progress ending in success and then list the model', async () => {
    const progress = await ollama.pull({ model: 'mock-new', stream: true });
    const frames: { status: string; digest?: string; total?: number; completed?: number }[] = [];
    for await (const frame of progress) {
      frames.push(frame);
    }
    expect(frames[0].status).toBe('pulling manifest');
    const steps = frames.filter((frame) => frame.status.startsWith('pulling ') && frame.digest !== undefined);
    expect(steps).toHaveLength(3);
    expect(steps[0].status).toMatch(/^pulling [0-9a-f]{12}$/);
    expect(steps[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(steps.at(-1)?.completed).toBe(steps.at(-1)?.total);
    expect(frames.slice(-3).map((frame) => frame.status)).toEqual([
      'verifying sha256 digest',
      'writing manifest',
      'success',
    ]);
    expect(mock.models()).toContain('mock-new');
    expect((await ollama.list()).models.map((model) => model.name)).toContain('mock-new');
  });

  it('should pull without streaming, and fail mock-missing and scripted pull errors', async () => {
    await expect(ollama.pull({ model: 'mock-extra' })).resolves.toEqual({ status: 'success' });
    expect(mock.models()).toContain('mock-extra');
    const missing = await ollama.pull({ model: 'mock-missing', stream: true });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const frame of missing) {
          seen.push(frame.status);
        }
      })(),
    ).rejects.toThrow('pull model manifest: file does not exist');
    expect(seen).toEqual(['pulling manifest']);
    mock.enqueue({ route: 'pull', kind: 'error', status: 503, message: 'registry down' });
    await expect(ollama.pull({ model: 'mock-other', stream: true })).rejects.toMatchObject({
      status_code: 503,
      error: 'registry down',
    });
    expect(mock.models()).not.toContain('mock-other');
  });

  it('should delete a model and 404 an unknown one', async () => {
    await expect(ollama.delete({ model: 'mock-large' })).resolves.toEqual({ status: 'success' });
    expect(mock.models()).toEqual(['mock-small', 'mock-medium']);
    await expect(ollama.delete({ model: 'mock-large' })).rejects.toMatchObject({
      status_code: 404,
      error: "model 'mock-large' not found",
    });
  });

  it('should stream by default when the request omits stream', async () => {
    const response = await fetch(`${mock.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'mock-small', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text()).trim().split('\n');
    const frames = lines.map((line) => JSON.parse(line) as { done: boolean; message: { content: string } });
    expect(frames.at(-1)?.done).toBe(true);
    expect(frames.map((frame) => frame.message.content).join('')).toBe('ack: hi');
  });
});
