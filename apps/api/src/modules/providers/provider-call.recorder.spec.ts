import pino from 'pino';

import { type LoggingRuntime, ServiceMetrics, WriteBehindBuffers } from '@app/platform';

import { ProviderCallRecorder } from './provider-call.recorder';
import type { ProviderQuotas } from './provider-quotas';
import type { NewProviderCall, ProvidersRepository } from './providers.repository';

const CALL: NewProviderCall = {
  provider: 'mock',
  model: 'm',
  kind: 'chat',
  startedAt: new Date('2026-01-01T00:00:00Z'),
  latencyMs: 12,
  success: true,
  errorCode: null,
  inputTokens: 100,
  outputTokens: 20,
  cost: 0.001,
};

function setup() {
  const writes: Array<{ calls: readonly NewProviderCall[]; settle: (error?: Error) => void }> = [];
  const repository = {
    recordCalls: jest.fn(
      (calls: readonly NewProviderCall[]) =>
        new Promise<void>((resolve, reject) => {
          writes.push({ calls, settle: (error) => (error ? reject(error) : resolve()) });
        }),
    ),
  };
  const quotas = { record: jest.fn() };
  const log = pino({ level: 'silent' });
  const errors = jest.spyOn(log, 'error');
  const warnings = jest.spyOn(log, 'warn');
  const logging = { forName: () => log } as unknown as LoggingRuntime;
  const buffers = new WriteBehindBuffers();
  const metrics = new ServiceMetrics(false);
  const sut = new ProviderCallRecorder(
    repository as unknown as ProvidersRepository,
    quotas as unknown as ProviderQuotas,
    logging,
    buffers,
    metrics,
  );
  return { sut, writes, quotas, errors, warnings, repository, buffers, metrics };
}

/** Lets the writes that were started reach the repository. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Whether the promise has settled after pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('ProviderCallRecorder', () => {
  afterEach(() => jest.useRealTimers());

  it('should count the call against the quota at once, and write the calls of a short window in one batch', async () => {
    jest.useFakeTimers();
    const { sut, writes, quotas } = setup();

    sut.record(CALL);
    sut.record({ ...CALL, model: 'n' });
    expect(quotas.record).toHaveBeenCalledWith('mock', 120, CALL.startedAt.getTime());
    await jest.advanceTimersByTimeAsync(199);
    expect(writes).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);

    expect(writes.map((w) => w.calls.map((c) => c.model))).toEqual([['m', 'n']]);
    sut.record({ ...CALL, model: 'o' });
    await jest.advanceTimersByTimeAsync(200);
    expect(writes.map((w) => w.calls.map((c) => c.model))).toEqual([['m', 'n'], ['o']]);
  });

  it('should write a full batch at once, without waiting for the window', async () => {
    const { sut, writes } = setup();

    for (let i = 0; i < 100; i++) {
      sut.record({ ...CALL, model: `m${i}` });
    }
    await tick();

    expect(writes).toHaveLength(1);
    expect(writes[0]?.calls).toHaveLength(100);
  });

  it('should write what waits on flush, and resolve only once every call recorded before it is stored', async () => {
    const { sut, writes } = setup();
    sut.record(CALL);
    await tick();
    expect(writes).toHaveLength(0);

    const first = sut.flush();
    sut.record({ ...CALL, model: 'n' });
    const second = sut.flush();
    await tick();
    expect(writes.map((w) => w.calls.map((c) => c.model))).toEqual([['m'], ['n']]);

    writes[0]?.settle();
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(false);
    writes[1]?.settle();
    expect(await settled(second)).toBe(true);
  });

  it("should write what waits when the process's write-behind buffers are flushed (a backup's copy)", async () => {
    const { sut, writes, buffers } = setup();
    sut.record(CALL);

    const flushed = buffers.flushAll();
    await tick();
    expect(writes.map((w) => w.calls.map((c) => c.model))).toEqual([['m']]);
    expect(await settled(flushed)).toBe(false);
    writes[0]?.settle();
    expect(await flushed).toEqual([]);
  });

  it('should log a failed batch and still let flush resolve when the database refuses the rows', async () => {
    const { sut, writes, errors } = setup();
    sut.record(CALL);
    sut.record({ ...CALL, provider: 'other' });

    const flushed = sut.flush();
    await tick();
    writes[0]?.settle(new Error('database is down'));
    await flushed;

    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ provider: 'mock,other', rows: 2, err: expect.any(Error) }),
      'provider.call.record_failed',
    );
  });

  it('should log, not throw, when the repository fails at once because persistence is not wired', async () => {
    const { sut, repository, errors } = setup();
    repository.recordCalls.mockImplementationOnce(() => {
      throw new Error('persistence is not available');
    });

    expect(() => sut.record(CALL)).not.toThrow();
    await sut.flush();

    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ provider: 'mock' }), 'provider.call.record_failed');
  });

  it('should give up waiting at shutdown after five seconds and say how many rows were left', async () => {
    jest.useFakeTimers();
    const { sut, warnings } = setup();
    sut.record(CALL);
    sut.record(CALL);

    const shutdown = sut.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(5_000);
    await shutdown;

    expect(warnings).toHaveBeenCalledWith({ pending: 2 }, 'provider.call.records_unflushed');
  });

  it('should write the rows still waiting when the application shuts down, and wait for them', async () => {
    const { sut, writes } = setup();
    sut.record(CALL);

    const shutdown = sut.onApplicationShutdown();
    await tick();

    expect(writes).toHaveLength(1);
    expect(await settled(shutdown)).toBe(false);
    writes[0]?.settle();
    expect(await settled(shutdown)).toBe(true);
  });

  it('should count each call, its latency, tokens and cost in the metrics, by provider and model', async () => {
    jest.useFakeTimers();
    const { sut, metrics, writes } = setup();

    sut.record(CALL);
    sut.record({ ...CALL, success: false, errorCode: 5001, inputTokens: 0, outputTokens: 0, cost: 0 });

    const text = await metrics.render();
    expect(text).toContain('synthorg_model_calls_total{provider="mock",model="m",kind="chat",result="success"} 1');
    expect(text).toContain('synthorg_model_calls_total{provider="mock",model="m",kind="chat",result="error"} 1');
    expect(text).toContain(
      `synthorg_model_tokens_total{provider="mock",model="m",direction="input"} ${CALL.inputTokens}`,
    );
    expect(text).toContain(`synthorg_model_cost_total{provider="mock",model="m"} ${CALL.cost}`);
    expect(text).toContain('synthorg_model_call_duration_seconds_count{provider="mock",model="m",kind="chat"} 2');
    await jest.advanceTimersByTimeAsync(200);
    writes.forEach((w) => w.settle());
    await sut.flush();
  });
});
