import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLogging, type LoggingRuntime, REDACTED, validateSinkSettings } from '@app/platform';
import { CaptureStream, waitFor } from './logging-test-helpers';

interface ReceivedBatch {
  headers: IncomingHttpHeaders;
  records: Array<Record<string, unknown>>;
  status: number;
}

describe('http sink against a loopback receiver', () => {
  let server: Server;
  let baseUrl: string;
  const batches: ReceivedBatch[] = [];
  /** Statuses to answer with, in order; 200 once exhausted. */
  let scriptedStatuses: number[] = [];
  let dir: string;
  let runtime: LoggingRuntime | undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const status = scriptedStatuses.shift() ?? 200;
        batches.push({ headers: req.headers, records: JSON.parse(body) as Array<Record<string, unknown>>, status });
        res.writeHead(status).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-http-'));
    batches.length = 0;
    scriptedStatuses = [];
  });

  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(path: string, sink: Record<string, unknown> = {}): LoggingRuntime {
    const { customSinks } = validateSinkSettings({}, [
      {
        sink_type: 'http',
        http_url: `${baseUrl}${path}`,
        http_batch_size: 10,
        http_flush_interval_seconds: 0.5,
        http_timeout_seconds: 2,
        ...sink,
      },
    ]);
    runtime = createLogging({ dir, customSinks, console: { destination: new CaptureStream(), colorize: false } });
    return runtime;
  }

  function delivered(): Array<Record<string, unknown>> {
    return batches.filter((batch) => batch.status === 200).flatMap((batch) => batch.records);
  }

  it('should post full batches at batch size and the remainder on the flush interval when records accumulate', async () => {
    const logging = start('/ingest', { http_headers: { 'X-Api-Key': 'k-123', 'X-Tenant': 'acme' } });
    const log = logging.forName('api.access');
    for (let i = 0; i < 25; i++) {
      log.info({ seq: i }, 'api.request.completed');
    }
    // No flush(): the last 5 records must go out on the interval timer alone.
    await waitFor(() => delivered().length >= 25 && true, 'all 25 records');
    expect(batches.map((batch) => batch.records.length)).toEqual([10, 10, 5]);
    expect(delivered().map((record) => record['seq'])).toEqual(Array.from({ length: 25 }, (_, i) => i));
    const { headers } = batches[0];
    expect(headers['x-api-key']).toBe('k-123');
    expect(headers['x-tenant']).toBe('acme');
    expect(headers['content-type']).toBe('application/json');
    expect(batches[0].records[0]).toMatchObject({
      level: 'INFO',
      logger: 'synthorg.api.access',
      event: 'api.request.completed',
    });
  });

  /** Sink failures surface as process warnings; capture them instead of printing. */
  async function collectWarnings(work: () => Promise<void>): Promise<string[]> {
    const emit = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      await work();
      return emit.mock.calls.map(([warning]) => String(warning));
    } finally {
      emit.mockRestore();
    }
  }

  it('should retry a batch when the receiver answers 500', async () => {
    const warnings = await collectWarnings(async () => {
      scriptedStatuses = [500];
      const logging = start('/retry', { http_max_retries: 2 });
      logging.root.error({ password: 'p' }, 'core.job.failed');
      await logging.flush();
    });
    expect(batches.map((batch) => batch.status)).toEqual([500, 200]);
    expect(batches[1].records).toEqual(batches[0].records);
    expect(batches[1].records[0]).toMatchObject({ event: 'core.job.failed', password: REDACTED });
    expect(warnings).toEqual([expect.stringContaining('HTTP 500')]);
  });

  it('should drop a batch after max retries when the receiver keeps failing', async () => {
    const warnings = await collectWarnings(async () => {
      scriptedStatuses = [503, 503, 503];
      const logging = start('/down', { http_max_retries: 1 });
      logging.root.info('core.first.logged');
      await logging.flush();
      expect(batches.map((batch) => batch.status)).toEqual([503, 503]);
      scriptedStatuses = [];
      logging.root.info('core.second.logged');
      await logging.flush();
    });
    expect(delivered().map((record) => record['event'])).toEqual(['core.second.logged']);
    expect(warnings).toContainEqual(expect.stringContaining('dropped'));
  });

  it('should send queued records on close when the interval has not fired yet', async () => {
    const logging = start('/close', { http_flush_interval_seconds: 60 });
    logging.root.info('core.shutdown.started');
    await logging.close();
    expect(delivered().map((record) => record['event'])).toEqual(['core.shutdown.started']);
  });

  it('should post only records at or above the sink level when a level is set', async () => {
    const logging = start('/level', { level: 'error' });
    logging.root.info('core.thing.done');
    logging.root.error('core.thing.failed');
    await logging.flush();
    expect(delivered().map((record) => record['event'])).toEqual(['core.thing.failed']);
  });

  it('should refuse a redirect (a failed delivery), never carrying its headers to the new location', async () => {
    const redirector = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(307, { location: `${baseUrl}/landed` }).end());
    });
    redirector.listen(0, '127.0.0.1');
    await once(redirector, 'listening');
    try {
      const warnings = await collectWarnings(async () => {
        const { customSinks } = validateSinkSettings({}, [
          {
            sink_type: 'http',
            http_url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/ingest`,
            http_batch_size: 10,
            http_flush_interval_seconds: 0.5,
            http_timeout_seconds: 2,
            http_max_retries: 1,
            http_headers: { Authorization: 'Bearer sink-secret' },
          },
        ]);
        runtime = createLogging({ dir, customSinks, console: { destination: new CaptureStream(), colorize: false } });
        runtime.root.info('core.thing.done');
        await runtime.flush();
      });
      expect(batches).toEqual([]);
      expect(warnings).toContainEqual(expect.stringContaining('dropped'));
    } finally {
      redirector.closeAllConnections();
      await new Promise((resolve) => redirector.close(resolve));
    }
  });
});
