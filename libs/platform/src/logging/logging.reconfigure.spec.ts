import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { Correlation } from '../context/correlation';
import { HttpBatchSink } from './http-sink';
import { createLogging } from './logging.factory';
import type { LoggingRuntime } from './logging.types';
import { validateSinkSettings } from './sink-validation';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

describe('LoggingRuntime.reconfigure', () => {
  let dir: string;
  let runtime: LoggingRuntime;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-live-logging-'));
    runtime = createLogging({ dir, console: { destination: new Capture(), colorize: false } });
  });

  afterEach(async () => {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function events(file: string): Array<Record<string, unknown>> {
    const path = join(dir, file);
    return existsSync(path)
      ? readFileSync(path, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  }

  it('should change the level of loggers and their children created before the change', async () => {
    const named = runtime.forName('config.x');
    const child = named.child({ part: 'y' });
    child.debug('config.debug.before');
    await runtime.reconfigure({ rootLevel: 'debug' });
    child.debug('config.debug.after');
    expect(named.isLevelEnabled('debug')).toBe(true);
    await runtime.reconfigure({ rootLevel: 'error' });
    named.warn('config.warn.quiet');
    await runtime.flush();
    const written = events('debug.log').map((r) => r['event']);
    expect(written).toEqual(['config.debug.after']);
    expect(events('configuration.log').map((r) => r['event'])).not.toContain('config.warn.quiet');
  });

  it('should add or drop the correlation ids when correlation is switched', async () => {
    const log = runtime.forName('config.x');
    await Correlation.run({ request_id: 'req-1' }, async () => {
      log.info('config.with');
      await runtime.reconfigure({ enableCorrelation: false });
      log.info('config.without');
    });
    await runtime.flush();
    const records = events('configuration.log');
    expect(records.find((r) => r['event'] === 'config.with')?.['request_id']).toBe('req-1');
    expect(records.find((r) => r['event'] === 'config.without')).not.toHaveProperty('request_id');
  });

  it('should keep the running sinks when a new one cannot be opened', async () => {
    writeFileSync(join(dir, 'blocked'), 'a file where a directory is needed');
    const sinks = validateSinkSettings({}, [{ file_path: 'blocked/custom.log' }]);
    await expect(runtime.reconfigure(sinks)).rejects.toThrow();
    expect(runtime.sinks().some((s) => s.identifier === 'blocked/custom.log')).toBe(false);
    runtime.forName('config.x').info('config.still.written');
    await runtime.flush();
    expect(events('configuration.log').map((r) => r['event'])).toContain('config.still.written');
  });

  it('should apply changes one after another, in the order asked', async () => {
    const first = runtime.reconfigure(validateSinkSettings({}, [{ file_path: 'one.log' }]));
    const second = runtime.reconfigure(validateSinkSettings({}, [{ file_path: 'two.log' }]));
    await Promise.all([first, second]);
    const custom = runtime.sinks().filter((s) => !s.is_default);
    expect(custom.map((s) => s.identifier)).toEqual(['two.log']);
  });
});

describe('HttpBatchSink under a dead endpoint', () => {
  it('should bound its queue and count the records it drops', async () => {
    const { customSinks } = validateSinkSettings({}, [
      // Nothing listens on port 9 (discard) of loopback in the test environment: every request fails fast.
      { sink_type: 'http', http_url: 'http://127.0.0.1:9/logs', http_batch_size: 10, http_max_retries: 0 },
    ]);
    const config = customSinks[0];
    if (config?.sink_type !== 'http') {
      throw new Error('expected an http sink');
    }
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const sink = new HttpBatchSink(config);
    try {
      for (let i = 0; i < 1_500; i++) {
        sink.write(`{"n":${i}}\n`);
      }
      // The first batch of 10 is in flight; 100 batches of 10 are kept at most, the oldest 490 dropped at once.
      expect(sink.droppedRecords).toBe(490);
      await sink.close();
      expect(sink.droppedRecords).toBe(1_500);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('dropped so far'), expect.anything());
    } finally {
      warn.mockRestore();
    }
  });
});
