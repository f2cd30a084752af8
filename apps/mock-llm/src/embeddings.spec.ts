import { Ollama } from 'ollama';
import OpenAI from 'openai';

import { embedText } from './embeddings';
import { startMockLlm } from './index';
import type { MockLlm } from './types';

function cosine(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, v, i) => sum + v * b[i], 0);
}

describe('mock-llm embeddings', () => {
  let mock: MockLlm;

  beforeEach(async () => {
    mock = await startMockLlm();
  });

  afterEach(async () => {
    await mock.close();
  });

  it('should give unit vectors where texts sharing words are closer than unrelated ones', () => {
    const a = embedText('the build fails on the arm runner');
    const b = embedText('fix the arm runner build');
    const c = embedText('quarterly marketing newsletter draft');
    expect(cosine(a, a)).toBeCloseTo(1, 6);
    expect(cosine(a, b)).toBeGreaterThan(0.4);
    expect(Math.abs(cosine(a, c))).toBeLessThan(0.3);
    expect(embedText('same words here')).toEqual(embedText('Same, words HERE!'));
  });

  it('should serve POST /v1/embeddings to the OpenAI SDK with data[].embedding in input order', async () => {
    const client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'unused', maxRetries: 0, timeout: 2000 });
    const response = await client.embeddings.create({
      model: 'mock-embed',
      input: ['alpha beta', 'gamma'],
      dimensions: 32,
      encoding_format: 'float',
    });
    expect(response.data.map((d) => d.index)).toEqual([0, 1]);
    expect(response.data[0].embedding).toEqual(embedText('alpha beta', 32));
    expect(response.usage.prompt_tokens).toBe(3);
    expect(mock.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/embeddings' });
  });

  it('should serve POST /api/embed to the Ollama client and refuse a body without input', async () => {
    const client = new Ollama({ host: mock.url });
    const response = await client.embed({ model: 'mock-embed', input: ['alpha beta'] });
    expect(response.embeddings).toEqual([embedText('alpha beta')]);
    const bad = await fetch(`${mock.url}/api/embed`, { method: 'POST', body: JSON.stringify({ model: 'm' }) });
    expect(bad.status).toBe(400);
  });
});
