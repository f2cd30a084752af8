import pino from 'pino';

import { ErrorCode, type EmbedRequest, type EmbedResult } from '@app/domain';
import type { LoggingRuntime } from '@app/platform';

import type { RunSpend } from '../engine';
import type { ProviderRegistry, RegisteredProvider } from '../providers';
import type { SettingsSnapshot } from '../settings';
import { MemoryEmbedder } from './memory-embedder';

type Protocol = 'openai_compatible' | 'ollama' | 'anthropic';

function provider(name: string, protocol: Protocol, embed?: (r: EmbedRequest) => Promise<EmbedResult>) {
  return {
    record: { name, protocol, models: [{ id: 'embed-1', alias: null, costPer1kInput: 1, costPer1kOutput: 0 }] },
    driver: embed ? { embed } : {},
  } as unknown as RegisteredProvider;
}

function setup(values: Record<string, unknown>, providers: RegisteredProvider[]) {
  const settings = { value: (_ns: string, key: string) => values[key] ?? null } as unknown as SettingsSnapshot;
  const registry = {
    get: (name: string) => providers.find((p) => p.record.name === name),
    list: () => providers,
  } as unknown as ProviderRegistry;
  const spend = {
    reserve: jest.fn(() => Promise.resolve({ ok: true, reservationId: 'r1' })),
    record: jest.fn(() => Promise.resolve()),
    release: jest.fn(() => Promise.resolve()),
  };
  const logging = { forName: () => pino({ level: 'silent' }) } as unknown as LoggingRuntime;
  return { sut: new MemoryEmbedder(registry, settings, spend as unknown as RunSpend, logging), spend };
}

describe(MemoryEmbedder.name, () => {
  const vectors = (n: number, size: number) => Array.from({ length: n }, () => Array.from({ length: size }, () => 1));

  it('should say why nothing is wired: no model, an unknown provider, a protocol without embeddings', () => {
    expect(setup({}, []).sut.state()).toMatchObject({ wired: false, code: ErrorCode.MemoryBackendUnavailable });
    expect(setup({ embedder_model: 'embed-1', embedder_provider: 'gone' }, []).sut.state()).toMatchObject({
      wired: false,
      reason: 'embedding provider gone is not registered',
    });
    const claude = setup({ embedder_model: 'embed-1', embedder_provider: 'claude' }, [provider('claude', 'anthropic')]);
    expect(claude.sut.state()).toMatchObject({ wired: false, code: ErrorCode.MemoryEmbedderUnsupported });
    expect(setup({ backend: 'qdrant', embedder_model: 'embed-1' }, []).sut.state()).toMatchObject({ wired: false });
  });

  it('should find the provider by its models when none is named, and accept mem0 as an alias', () => {
    const embed = () => Promise.resolve({ model: 'embed-1', vectors: [], inputTokens: 0 });
    const { sut } = setup({ backend: 'mem0', embedder_model: 'embed-1' }, [provider('local', 'ollama', embed)]);
    expect(sut.state()).toMatchObject({ wired: true, provider: 'local', model: 'embed-1' });
  });

  it('should return unit vectors and reserve and record a run call as call category embedding', async () => {
    const embed = jest.fn((r: EmbedRequest) => Promise.resolve({ model: r.model, vectors: [[3, 4]], inputTokens: 7 }));
    const { sut, spend } = setup({ embedder_model: 'embed-1', embedder_provider: 'oa' }, [
      provider('oa', 'openai_compatible', embed),
    ]);
    const charge = { task: { id: 't1' }, agent: { id: 'a1' } } as never;
    const { vectors, marker } = await sut.embed(['hello'], charge);
    expect(Array.from(vectors[0])).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(marker).toBe('oa/embed-1/2');
    expect(spend.reserve).toHaveBeenCalledTimes(1);
    expect(spend.record).toHaveBeenCalledWith(
      expect.objectContaining({
        agentId: 'a1',
        taskId: 't1',
        callCategory: 'embedding',
        inputTokens: 7,
        costUsd: 0.007,
      }),
      'r1',
    );
  });

  it('should refuse an answer of the wrong shape with 7040 and give the reservation back', async () => {
    const embed = () => Promise.resolve({ model: 'embed-1', vectors: vectors(1, 3), inputTokens: 1 });
    const { sut, spend } = setup({ embedder_model: 'embed-1', embedder_provider: 'oa', embedder_dims: 4 }, [
      provider('oa', 'openai_compatible', embed),
    ]);
    await expect(sut.embed(['a'], { task: { id: 't' }, agent: { id: 'a' } } as never)).rejects.toMatchObject({
      code: ErrorCode.EmbeddingMalformed,
    });
    expect(spend.release).toHaveBeenCalledWith('r1');
    expect(spend.record).not.toHaveBeenCalled();
  });

  it('should answer 8040 when nothing is wired', async () => {
    await expect(setup({}, []).sut.embed(['a'], null)).rejects.toMatchObject({
      code: ErrorCode.MemoryBackendUnavailable,
      httpStatus: 503,
    });
  });
});
