import pino from 'pino';

import type { LoggingRuntime } from '@app/platform';

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
  const writes: Array<{ call: NewProviderCall; settle: (error?: Error) => void }> = [];
  const repository = {
    recordCall: jest.fn(
      (call: NewProviderCall) =>
        new Promise<void>((resolve, reject) => {
          writes.push({ call, settle: (error) => (error ? reject(error) : resolve()) });
        }),
    ),
  };
  const quotas = { record: jest.fn() };
  const log = pino({ level: 'silent' });
  const errors = jest.spyOn(log, 'error');
  const warnings = jest.spyOn(log, 'warn');
  const logging = { forName: () => log } as unknown as LoggingRuntime;
  const sut = new ProviderCallRecorder(
    repository as unknown as ProvidersRepository,
    quotas as unknown as ProviderQuotas,
    logging,
  );
  return { sut, writes, quotas, errors, warnings, repository };
}

/** Lets the writes that record() started reach the repository. */
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
  it('should count the call against the quota at once and start its write without waiting for it', async () => {
    const { sut, writes, quotas } = setup();

    sut.record(CALL);

    expect(quotas.record).toHaveBeenCalledWith('mock', 120, CALL.startedAt.getTime());
    await tick();
    expect(writes.map((w) => w.call)).toEqual([CALL]);
  });

  it('should resolve flush only once every write started before it is stored', async () => {
    const { sut, writes } = setup();
    sut.record(CALL);
    sut.record({ ...CALL, model: 'n' });
    await tick();

    const flushed = sut.flush();
    writes[0]?.settle();

    expect(await settled(flushed)).toBe(false);
    writes[1]?.settle();
    expect(await settled(flushed)).toBe(true);
  });

  it('should log a failed write and still let flush resolve when the database refuses the row', async () => {
    const { sut, writes, errors } = setup();
    sut.record(CALL);
    await tick();

    writes[0]?.settle(new Error('database is down'));
    await sut.flush();

    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ provider: 'mock', err: expect.any(Error) }),
      'provider.call.record_failed',
    );
  });

  it('should log, not throw, when the repository fails at once because persistence is not wired', async () => {
    const { sut, repository, errors } = setup();
    repository.recordCall.mockImplementationOnce(() => {
      throw new Error('persistence is not available');
    });

    expect(() => sut.record(CALL)).not.toThrow();
    await sut.flush();

    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ provider: 'mock' }), 'provider.call.record_failed');
  });

  it('should not wait in flush for writes recorded after it was called', async () => {
    const { sut, writes } = setup();
    sut.record(CALL);
    await tick();

    const flushed = sut.flush();
    sut.record({ ...CALL, model: 'later' });
    await tick();
    writes[0]?.settle();

    expect(await settled(flushed)).toBe(true);
  });

  it('should give up waiting at shutdown after five seconds and say how many rows were left', async () => {
    jest.useFakeTimers();
    try {
      const { sut, warnings } = setup();
      sut.record(CALL);

      const shutdown = sut.onApplicationShutdown();
      await jest.advanceTimersByTimeAsync(5_000);
      await shutdown;

      expect(warnings).toHaveBeenCalledWith({ pending: 1 }, 'provider.call.records_unflushed');
    } finally {
      jest.useRealTimers();
    }
  });

  it('should wait for pending writes when the application shuts down', async () => {
    const { sut, writes } = setup();
    sut.record(CALL);
    await tick();

    const shutdown = sut.onApplicationShutdown();

    expect(await settled(shutdown)).toBe(false);
    writes[0]?.settle();
    expect(await settled(shutdown)).toBe(true);
  });
});
