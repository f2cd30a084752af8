import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { Correlation } from '../context/correlation';
import { createLogging, isoTimestamp } from './logging.factory';
import type { LoggingOptions, LoggingRuntime } from './logging.types';
import { REDACTED } from './redaction';
import { validateSinkSettings } from './sink-validation';

type LogRecord = Record<string, unknown>;

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

describe('isoTimestamp', () => {
  it('should render the ISO time of every millisecond, across seconds, days and years', () => {
    const instants = [
      Date.UTC(2026, 10, 27, 0, 0, 0, 0),
      Date.UTC(2026, 10, 27, 0, 0, 0, 7),
      Date.UTC(2026, 10, 27, 0, 0, 0, 42),
      Date.UTC(2026, 10, 27, 0, 0, 0, 999),
      Date.UTC(2026, 10, 27, 0, 0, 1, 0),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 100),
      Date.UTC(2027, 0, 1, 0, 0, 0, 100),
    ];
    const now = jest.spyOn(Date, 'now');
    try {
      for (const instant of instants) {
        now.mockReturnValue(instant);
        expect(isoTimestamp()).toBe(`,"time":"${new Date(instant).toISOString()}"`);
      }
    } finally {
      now.mockRestore();
    }
  });
});

describe('createLogging', () => {
  let dir: string;
  let runtime: LoggingRuntime | undefined;
  let consoleOut: Capture;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-logging-'));
    consoleOut = new Capture();
  });

  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(options: Partial<LoggingOptions> = {}): LoggingRuntime {
    runtime = createLogging({ dir, console: { destination: consoleOut, colorize: false }, ...options });
    return runtime;
  }

  function records(file: string): LogRecord[] {
    const path = join(dir, file);
    if (!existsSync(path)) {
      return [];
    }
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogRecord);
  }

  function events(file: string): unknown[] {
    return records(file).map((record) => record['event']);
  }

  describe('record format', () => {
    it('should write level, ISO time, logger and event when a named logger logs', async () => {
      const logging = start();
      logging.forName('api.access').info({ status: 200 }, 'api.request.completed');
      await logging.flush();
      const [record] = records('synthorg.log');
      expect(record).toEqual({
        level: 'INFO',
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as unknown,
        logger: 'synthorg.api.access',
        status: 200,
        event: 'api.request.completed',
      });
    });

    it('should label warn as WARNING and fatal as CRITICAL when written', async () => {
      const logging = start();
      logging.root.warn('core.thing.warned');
      logging.root.fatal('core.thing.died');
      await logging.flush();
      expect(records('synthorg.log').map((r) => [r['level'], r['logger']])).toEqual([
        ['WARNING', 'synthorg'],
        ['CRITICAL', 'synthorg'],
      ]);
    });

    it('should qualify and cache named loggers when asked repeatedly', () => {
      const logging = start();
      expect(logging.forName('tasks')).toBe(logging.forName('tasks'));
      expect(logging.forName('synthorg.tasks')).toBe(logging.forName('tasks'));
      expect(logging.forName('synthorg')).toBe(logging.root);
    });
  });

  describe('prebuilt records', () => {
    const raw = (file: string): string[] =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.replace(/"time":"[^"]*"/, '"time":"T"'));

    it('should write the same line pino writes for the same record, to the same sinks', async () => {
      const logging = start();
      const record = {
        request_id: 'a1b2',
        req: { method: 'GET', url: '/api/v1/x?q="quoted"\\ü' },
        res: { status_code: 404 },
        duration_ms: 1.25,
      };
      logging.forName('api.access').warn(record, 'api.request.completed');
      const members = JSON.stringify(record).slice(1, -1);
      logging.prebuilt('api.access').write('warning', members, 'api.request.completed');
      await logging.flush();
      for (const file of ['access.log', 'synthorg.log', 'debug.log']) {
        const [viaPino, prebuilt] = raw(file);
        expect(prebuilt).toBe(viaPino);
      }
      expect(raw('access.log')).toHaveLength(2);
      const consoleLines = consoleOut.text.split('\n').filter((line) => line.includes('api.request.completed'));
      expect(consoleLines).toHaveLength(2);
      expect(consoleLines[1]?.replace(/^\[[^\]]*\]/, '')).toBe(consoleLines[0]?.replace(/^\[[^\]]*\]/, ''));
    });

    it('should write nothing below the logger level', async () => {
      const logging = start({ rootLevel: 'warning' });
      const access = logging.prebuilt('api.access');
      expect(access.isLevelEnabled('info')).toBe(false);
      expect(access.isLevelEnabled('error')).toBe(true);
      access.write('info', '"n":1', 'api.request.completed');
      access.write('error', '"n":2', 'api.request.completed');
      access.write('error', '', 'api.request.completed'); // no fields: still one valid record
      await logging.flush();
      expect(records('access.log')).toEqual([
        expect.objectContaining({ n: 2, level: 'ERROR' }),
        expect.objectContaining({ logger: 'synthorg.api.access', event: 'api.request.completed' }),
      ]);
    });
  });

  describe('routing', () => {
    it('should route a security record to audit.log and synthorg.log but not access.log', async () => {
      const logging = start();
      logging.forName('security.auth').info('security.login.succeeded');
      await logging.flush();
      expect(events('audit.log')).toEqual(['security.login.succeeded']);
      expect(events('synthorg.log')).toEqual(['security.login.succeeded']);
      expect(events('access.log')).toEqual([]);
      expect(events('errors.log')).toEqual([]);
    });

    it('should put DEBUG records only into DEBUG sinks when the root level is debug', async () => {
      const logging = start({ rootLevel: 'debug' });
      logging.forName('engine.loop').debug('engine.step.started');
      logging.forName('api.access').debug('api.detail.logged');
      await logging.flush();
      expect(events('debug.log')).toEqual(['engine.step.started', 'api.detail.logged']);
      expect(events('agent_activity.log')).toEqual(['engine.step.started']);
      for (const file of ['synthorg.log', 'access.log', 'audit.log', 'errors.log']) {
        expect(events(file)).toEqual([]);
      }
      expect(consoleOut.text).toBe('');
    });

    it('should drop DEBUG records everywhere when the root level is info', async () => {
      const logging = start({ rootLevel: 'info' });
      logging.forName('engine.loop').debug('engine.step.started');
      await logging.flush();
      expect(events('debug.log')).toEqual([]);
      expect(events('agent_activity.log')).toEqual([]);
    });

    it('should write ERROR records to errors.log and keep lower levels out when mixed', async () => {
      const logging = start();
      const log = logging.forName('budget.ledger');
      log.warn('budget.limit.approached');
      log.error('budget.limit.exceeded');
      await logging.flush();
      expect(events('errors.log')).toEqual(['budget.limit.exceeded']);
      expect(events('cost_usage.log')).toEqual(['budget.limit.approached', 'budget.limit.exceeded']);
    });

    it('should honour overrides when a sink is disabled or its level and routing change', async () => {
      const { sinkOverrides } = validateSinkSettings(
        { 'synthorg.log': { enabled: false }, 'access.log': { level: 'error', routing_prefixes: ['synthorg.web.'] } },
        [],
      );
      const logging = start({ sinkOverrides });
      logging.forName('api.access').error('api.request.failed');
      logging.forName('web.ui').info('web.page.served');
      logging.forName('web.ui').error('web.page.failed');
      await logging.flush();
      expect(existsSync(join(dir, 'synthorg.log'))).toBe(false);
      expect(events('access.log')).toEqual(['web.page.failed']);
    });

    it('should honour custom file sinks with routing and text format when configured', async () => {
      const { customSinks } = validateSinkSettings({}, [
        {
          file_path: 'custom/agents.log',
          routing_prefixes: ['synthorg.engine.'],
          json_format: false,
          level: 'warning',
        },
      ]);
      const logging = start({ customSinks });
      logging.forName('engine.loop').warn({ step: 3 }, 'engine.step.slow');
      logging.forName('engine.loop').info('engine.step.done');
      logging.forName('api.access').warn('api.request.slow');
      await logging.flush();
      const text = readFileSync(join(dir, 'custom/agents.log'), 'utf8');
      expect(text).toContain('WARNING');
      expect(text).toContain('synthorg.engine.loop engine.step.slow');
      expect(text).toContain('{"step":3}');
      expect(text).not.toContain('engine.step.done');
      expect(text).not.toContain('api.request.slow');
    });
  });

  describe('correlation', () => {
    it('should inject correlation ids when logging inside Correlation.run', async () => {
      const logging = start();
      Correlation.run({ request_id: 'r1', task_id: 't1' }, () =>
        logging.forName('engine.loop').info('engine.task.started'),
      );
      logging.forName('engine.loop').info('engine.idle.noticed');
      await logging.flush();
      const [inside, outside] = records('synthorg.log');
      expect(inside).toMatchObject({ request_id: 'r1', task_id: 't1', event: 'engine.task.started' });
      expect(inside).not.toHaveProperty('agent_id');
      expect(outside).not.toHaveProperty('request_id');
    });

    it('should let explicit fields win and leave the context untouched when both set a key', async () => {
      const logging = start();
      const ids = { request_id: 'r1', agent_id: 'a1' };
      Correlation.run(ids, () => {
        logging.root.info({ agent_id: 'explicit' }, 'core.agent.selected');
        expect(Correlation.current()).toEqual(ids);
      });
      await logging.flush();
      expect(records('synthorg.log')[0]).toMatchObject({ request_id: 'r1', agent_id: 'explicit' });
    });

    it('should not inject ids when correlation is disabled', async () => {
      const logging = start({ enableCorrelation: false });
      Correlation.run({ request_id: 'r1' }, () => logging.root.info('core.thing.done'));
      await logging.flush();
      expect(records('synthorg.log')[0]).not.toHaveProperty('request_id');
    });
  });

  describe('redaction', () => {
    it('should redact nested secrets and error fields without mutating the logged object', async () => {
      const logging = start();
      const payload = { user: 'ada', auth: { password: 'p', list: [{ access_token: 't' }] } };
      const err = Object.assign(new Error('provider failed'), { api_key: 'sk-123' });
      logging.forName('providers.openai').error({ payload, err, session_id: 's-1' }, 'providers.call.failed');
      await logging.flush();
      const [record] = records('cost_usage.log');
      expect(record).toMatchObject({
        payload: { user: 'ada', auth: { password: REDACTED, list: [{ access_token: REDACTED }] } },
        err: { type: 'Error', message: 'provider failed', api_key: REDACTED },
        session_id: REDACTED,
      });
      expect(payload.auth.password).toBe('p');
      expect(err.api_key).toBe('sk-123');
    });

    it('should redact secrets in child bindings when a child logger carries them', async () => {
      const logging = start();
      logging.forName('security.auth').child({ bearer: 'abc' }).info('security.token.checked');
      await logging.flush();
      expect(records('audit.log')[0]).toMatchObject({ bearer: REDACTED, logger: 'synthorg.security.auth' });
    });

    it('should redact what child serializers produce when they expose secrets', async () => {
      const logging = start();
      const serializers = { req: (raw: { h: string }) => ({ headers: { authorization: raw.h, accept: 'json' } }) };
      logging
        .forName('api.access')
        .child({}, { serializers })
        .info({ req: { h: 'Bearer abc' } }, 'api.request.completed');
      await logging.flush();
      expect(records('access.log')[0]).toMatchObject({ req: { headers: { authorization: REDACTED, accept: 'json' } } });
    });
  });

  describe('console', () => {
    it('should print INFO and above as plain text when colour is off', async () => {
      const logging = start({ rootLevel: 'debug' });
      logging.forName('api.access').debug('api.detail.logged');
      logging.forName('api.access').info({ status: 200 }, 'api.request.completed');
      await logging.flush();
      expect(consoleOut.text).toContain('INFO');
      expect(consoleOut.text).toContain('synthorg.api.access api.request.completed');
      expect(consoleOut.text).not.toContain('api.detail.logged');
      expect(consoleOut.text).not.toContain('\u001b[');
    });

    it('should colour the console output when colorize is on', async () => {
      runtime = createLogging({ dir, console: { destination: consoleOut, colorize: true } });
      runtime.root.error('core.thing.failed');
      await runtime.flush();
      expect(consoleOut.text).toContain('\u001b[');
    });

    it('should print JSON lines on the console when json_format is overridden', async () => {
      const { sinkOverrides } = validateSinkSettings({ __console__: { json_format: true, level: 'warning' } }, []);
      const logging = start({ sinkOverrides });
      logging.root.info('core.thing.done');
      logging.root.warn('core.thing.odd');
      await logging.flush();
      const lines = consoleOut.text.trim().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as LogRecord)['event'])).toEqual(['core.thing.odd']);
    });
  });

  describe('sinks and lifecycle', () => {
    it('should list eleven defaults plus custom sinks with disabled defaults marked when asked', () => {
      const settings = validateSinkSettings({ 'backup.log': { enabled: false } }, [
        { file_path: 'x.log' },
        { sink_type: 'http', http_url: 'http://127.0.0.1:9/in', level: 'error' },
      ]);
      const sinks = start(settings).sinks();
      expect(sinks).toHaveLength(13);
      expect(sinks[0]).toEqual({
        identifier: '__console__',
        sink_type: 'console',
        level: 'INFO',
        json_format: false,
        rotation: null,
        is_default: true,
        enabled: true,
        routing_prefixes: [],
      });
      expect(sinks.find((s) => s.identifier === 'backup.log')).toMatchObject({ enabled: false, is_default: true });
      expect(sinks.find((s) => s.identifier === 'audit.log')?.routing_prefixes).toEqual([
        'synthorg.security.',
        'synthorg.hr.',
        'synthorg.observability.',
      ]);
      expect(sinks[12]).toMatchObject({
        identifier: 'http://127.0.0.1:9/in',
        sink_type: 'http',
        level: 'ERROR',
        rotation: null,
        is_default: false,
      });
      expect(existsSync(join(dir, 'backup.log'))).toBe(false);
    });

    it('should create a missing log directory when started', () => {
      const nested = join(dir, 'a', 'b');
      runtime = createLogging({ dir: nested, console: { destination: consoleOut } });
      expect(existsSync(nested)).toBe(true);
    });

    it('should ignore records and repeat close safely when already closed', async () => {
      const logging = start();
      logging.root.info('core.first.logged');
      await logging.close();
      logging.root.info('core.after.close');
      await logging.close();
      expect(events('synthorg.log')).toEqual(['core.first.logged']);
    });
  });
});
