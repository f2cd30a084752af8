import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { planSinks } from './sink-plan';
import type { SinkHostConfig } from './sink-host';
import { SINK_WARNING_CODE } from './sink-diagnostics';
import { sinkWorkerEntry, WorkerSinkHost } from './worker-sink-host';

/**
 * A stand-in sink thread speaking the host protocol: it reports every request to the test through
 * `workerData.out` (a file, one JSON line per request), so the spec sees exactly what crossed, and
 * it stops itself on a record whose text asks it to.
 */
const FAKE_ENTRY = `
const { parentPort, workerData } = require('node:worker_threads');
const { appendFileSync } = require('node:fs');
parentPort.on('message', (request) => {
  const seen = request.type === 'records' ? { ...request, levels: Array.from(request.levels) } : request;
  appendFileSync(workerData.out, JSON.stringify(seen) + '\\n');
  if (request.type === 'records') {
    if (request.text.includes('die')) process.exit(3);
    parentPort.postMessage({ type: 'taken', chars: request.chars });
  } else if (workerData.answer !== false) {
    setTimeout(() => parentPort.postMessage({ type: 'done', id: request.id }), 20);
  }
});
`;

interface Seen {
  type: string;
  text?: string;
  levels?: number[];
  chars?: number;
}

describe('WorkerSinkHost', () => {
  let dir: string;
  let entry: string;
  let out: string;
  const hosts: WorkerSinkHost[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sink-host-'));
    entry = join(dir, 'fake-sink-worker.js');
    out = join(dir, 'seen.jsonl');
    writeFileSync(entry, FAKE_ENTRY);
    writeFileSync(out, '');
  });

  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (extra: Record<string, unknown> = {}, limits = {}): WorkerSinkHost => {
    const config = { dir, sinks: [], console: { colorize: false }, out, ...extra } as SinkHostConfig;
    const host = new WorkerSinkHost(entry, config, limits);
    hosts.push(host);
    return host;
  };
  const seen = (): Seen[] =>
    readFileSync(out, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Seen);

  it('should hand records over together, in order, with their levels, and flush after them', async () => {
    const host = open({}, { lingerMs: 50 });
    host.write('{"n":1}\n', 30);
    host.write('{"n":2}\n', 50);
    host.write('{"n":3}\n', 20);
    await host.flush();
    const requests = seen();
    expect(requests.map((r) => r.type)).toEqual(['records', 'flush']);
    expect(requests[0]).toMatchObject({ text: '{"n":1}\n{"n":2}\n{"n":3}\n', levels: [30, 50, 20], chars: 24 });
  });

  it('should hand a lingering batch over by itself and start a new batch once it is full', async () => {
    const host = open({}, { lingerMs: 5, maxBatchChars: 16 });
    host.write('{"n":1}\n', 30);
    host.write('{"n":2}\n', 30); // 16 chars: handed over at once
    host.write('{"n":3}\n', 30); // waits for the linger
    // No flush: the linger alone must hand the last batch over. The sink thread may take a while to
    // start on a busy machine, so wait (bounded) for both batches rather than a fixed time.
    for (let waited = 0; seen().length < 2 && waited < 5_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen().map((r) => r.text)).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('should drop records beyond the backlog and report it, keeping what fits', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const host = open({}, { lingerMs: 1000, maxBacklogChars: 20 });
      host.write('{"n":1}\n', 30);
      host.write('{"n":2}\n', 30);
      host.write('{"n":3}\n', 30); // 24 > 20: dropped
      await host.flush();
      expect(seen()[0]?.text).toBe('{"n":1}\n{"n":2}\n');
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('backlog full'), { code: SINK_WARNING_CODE });
    } finally {
      warn.mockRestore();
    }
  });

  it('should ask the thread to close, stop it, and ignore records after close', async () => {
    const host = open();
    host.write('{"n":1}\n', 30);
    await host.close();
    host.write('{"n":2}\n', 30);
    await host.flush();
    expect(seen().map((r) => r.type)).toEqual(['records', 'close']);
  });

  it('should stop the thread when it does not answer close within the deadline', async () => {
    const host = open({ answer: false }, { closeDeadlineMs: 50 });
    const started = Date.now();
    await host.close();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('should reopen the sinks inline when the thread dies, so later records still arrive', async () => {
    const logs = join(dir, 'logs');
    const sinks = planSinks({}, []).filter((sink) => sink.info.identifier === 'access.log');
    const host = open({ dir: logs, sinks });
    host.write('{"level":"INFO","logger":"synthorg.api.access","event":"die"}\n', 30);
    await host.flush();
    await new Promise((resolve) => setTimeout(resolve, 200)); // the thread's exit arrives
    host.write('{"level":"INFO","logger":"synthorg.api.access","event":"after"}\n', 30);
    await host.flush();
    expect(readFileSync(join(logs, 'access.log'), 'utf8')).toContain('"event":"after"');
  });

  it('should find no compiled thread entry when running from TypeScript sources', () => {
    expect(sinkWorkerEntry()).toBeUndefined();
  });
});
