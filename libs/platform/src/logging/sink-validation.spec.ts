import { AppError, ErrorCode } from '@app/domain';

import { DEFAULT_ROTATION } from './sink-config';
import { validateSinkSettings } from './sink-validation';

function rejection(overrides: unknown, customSinks: unknown): AppError {
  try {
    validateSinkSettings(overrides, customSinks);
  } catch (error) {
    if (error instanceof AppError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected validateSinkSettings to reject the configuration');
}

function expectRejected(overrides: unknown, customSinks: unknown, message: RegExp): void {
  const error = rejection(overrides, customSinks);
  expect(error.code).toBe(ErrorCode.SinkConfigValidationError);
  expect(error.code).toBe(8015);
  expect(error.message).toMatch(message);
}

describe('validateSinkSettings', () => {
  describe('accepted input', () => {
    it('should return empty settings when both values are absent or blank', () => {
      expect(validateSinkSettings(undefined, null)).toEqual({ sinkOverrides: {}, customSinks: [] });
      expect(validateSinkSettings('', '  ')).toEqual({ sinkOverrides: {}, customSinks: [] });
    });

    it('should parse JSON text and apply defaults when custom sinks omit optional fields', () => {
      const result = validateSinkSettings(
        '{"audit.log":{"level":"DEBUG","rotation":{"max_bytes":2048}}}',
        JSON.stringify([
          { file_path: 'extra/app.log' },
          { sink_type: 'syslog', syslog_host: 'Collector.local' },
          { sink_type: 'http', http_url: 'https://logs.example.com/ingest', http_headers: { 'X-Token': 'abc' } },
        ]),
      );
      expect(result.sinkOverrides['audit.log']).toEqual({
        level: 'debug',
        rotation: { ...DEFAULT_ROTATION, max_bytes: 2048 },
      });
      expect(result.customSinks).toEqual([
        {
          sink_type: 'file',
          file_path: 'extra/app.log',
          level: 'info',
          json_format: true,
          rotation: { ...DEFAULT_ROTATION },
          routing_prefixes: [],
        },
        {
          sink_type: 'syslog',
          syslog_host: 'collector.local',
          syslog_port: 514,
          syslog_facility: 'user',
          syslog_protocol: 'udp',
          level: 'info',
        },
        {
          sink_type: 'http',
          http_url: 'https://logs.example.com/ingest',
          http_headers: { 'X-Token': 'abc' },
          http_batch_size: 100,
          http_flush_interval_seconds: 5,
          http_timeout_seconds: 10,
          http_max_retries: 3,
          level: 'info',
        },
      ]);
    });

    it('should accept disabling a default file sink and overriding the console level when asked', () => {
      const result = validateSinkSettings({ 'debug.log': { enabled: false }, __console__: { level: 'warning' } }, []);
      expect(result.sinkOverrides).toEqual({ 'debug.log': { enabled: false }, __console__: { level: 'warning' } });
    });

    it('should normalise a custom file path when it contains redundant segments', () => {
      const { customSinks } = validateSinkSettings({}, [{ file_path: './nested//custom.log' }]);
      expect(customSinks[0]).toMatchObject({ file_path: 'nested/custom.log' });
    });
  });

  describe('rejections', () => {
    it('should reject compress_rotated when the rotation strategy is external', () => {
      expectRejected(
        { 'synthorg.log': { rotation: { strategy: 'external', compress_rotated: true } } },
        [],
        /compress_rotated/,
      );
      expectRejected(
        {},
        [{ file_path: 'x.log', rotation: { strategy: 'external', compress_rotated: true } }],
        /custom_sinks\[0\].*compress_rotated/,
      );
    });

    it('should reject disabling the console when enabled is false for __console__', () => {
      expectRejected({ __console__: { enabled: false } }, [], /console sink cannot be disabled/);
    });

    it('should reject rotation or routing on the console when they are given', () => {
      expectRejected({ __console__: { rotation: { max_bytes: 4096 } } }, [], /does not apply to the console/);
      expectRejected({ __console__: { routing_prefixes: ['synthorg.api.'] } }, [], /does not apply to the console/);
    });

    it('should reject an unknown override key when it names no default sink', () => {
      expectRejected({ 'custom.log': { level: 'info' } }, [], /unknown sink 'custom.log'/);
    });

    it('should reject an unknown field inside an override when it is misspelt', () => {
      expectRejected({ 'audit.log': { levle: 'info' } }, [], /unknown field 'levle'/);
    });

    it('should reject a custom file path when it collides with a default sink name', () => {
      expectRejected({}, [{ file_path: 'audit.log' }], /collides with the default sink 'audit.log'/);
      expectRejected({}, [{ file_path: 'Errors.LOG' }], /default sink 'errors.log'/);
      expectRejected({}, [{ file_path: 'synthorg.log.1' }], /default sink 'synthorg.log'/);
      expectRejected({}, [{ file_path: 'debug.log/inner.log' }], /default sink 'debug.log'/);
    });

    it('should reject a collision with a default sink name when that default is disabled', () => {
      expectRejected(
        { 'access.log': { enabled: false } },
        [{ file_path: 'access.log' }],
        /collides with the default sink 'access.log'/,
      );
    });

    it('should reject duplicate custom file paths when two sinks name the same file', () => {
      expectRejected(
        {},
        [{ file_path: 'a/x.log' }, { file_path: 'a//x.log' }],
        /custom_sinks\[1\].*collides with another custom sink/,
      );
    });

    it('should reject a custom file path when it is absolute or climbs out with ..', () => {
      expectRejected({}, [{ file_path: '/var/log/x.log' }], /absolute/);
      expectRejected({}, [{ file_path: 'C:\\logs\\x.log' }], /custom_sinks\[0\]/);
      expectRejected({}, [{ file_path: '../x.log' }], /'\.\.'/);
      expectRejected({}, [{ file_path: 'a/../../x.log' }], /'\.\.'/);
    });

    it('should reject a custom file sink when file_path is missing', () => {
      expectRejected({}, [{ level: 'info' }], /'file_path' is required/);
    });

    it('should reject fields of a foreign sink type when they are mixed in', () => {
      expectRejected(
        {},
        [{ file_path: 'x.log', http_url: 'http://a' }],
        /'http_url' belongs to sink_type 'http', not 'file'/,
      );
      expectRejected(
        {},
        [{ sink_type: 'http', http_url: 'http://a', syslog_port: 514 }],
        /belongs to sink_type 'syslog'/,
      );
      expectRejected({}, [{ sink_type: 'syslog', syslog_host: 'h', rotation: {} }], /belongs to sink_type 'file'/);
      expectRejected({}, [{ sink_type: 'syslog', syslog_host: 'h', json_format: false }], /always emit JSON/);
    });

    it('should reject a bad http_url when it is not http(s) with a host', () => {
      expectRejected({}, [{ sink_type: 'http', http_url: 'not a url' }], /not a valid URL/);
      expectRejected({}, [{ sink_type: 'http', http_url: 'ftp://logs.example.com/' }], /http:\/\/ or https:\/\//);
      expectRejected({}, [{ sink_type: 'http', http_url: 'https://user:pw@logs.example.com/' }], /credentials/);
    });

    it('should reject duplicate syslog endpoints and http URLs when repeated', () => {
      const syslog = { sink_type: 'syslog', syslog_host: 'Collector', syslog_port: 1514 };
      expectRejected(
        {},
        [syslog, { ...syslog, syslog_host: 'collector' }],
        /custom_sinks\[1\].*duplicate syslog collector:1514/,
      );
      const http = { sink_type: 'http', http_url: 'https://logs.example.com/in' };
      expectRejected({}, [http, { ...http, http_url: 'https://LOGS.example.com/in' }], /duplicate http/);
    });

    it('should reject out-of-range http and syslog numbers when outside their bounds', () => {
      const http = { sink_type: 'http', http_url: 'http://127.0.0.1:9/' };
      expectRejected({}, [{ ...http, http_batch_size: 5 }], /http_batch_size/);
      expectRejected({}, [{ ...http, http_flush_interval_seconds: 0.1 }], /http_flush_interval_seconds/);
      expectRejected({}, [{ ...http, http_timeout_seconds: 61 }], /http_timeout_seconds/);
      expectRejected({}, [{ ...http, http_max_retries: 11 }], /http_max_retries/);
      expectRejected({}, [{ sink_type: 'syslog', syslog_host: 'h', syslog_port: 70000 }], /syslog_port/);
      expectRejected({}, [{ sink_type: 'syslog', syslog_host: 'h', syslog_protocol: 'tls' }], /syslog_protocol/);
      expectRejected({}, [{ sink_type: 'syslog', syslog_host: 'h', syslog_facility: 'local9' }], /syslog_facility/);
    });

    it('should reject a reserved or malformed http header when configured', () => {
      const http = { sink_type: 'http', http_url: 'http://127.0.0.1:9/' };
      expectRejected({}, [{ ...http, http_headers: { 'Content-Length': '1' } }], /reserved header/);
      expectRejected({}, [{ ...http, http_headers: { 'X-A': 'a\r\nb' } }], /without line breaks/);
    });

    it('should reject an unknown level, sink type or malformed JSON when given', () => {
      expectRejected({ 'audit.log': { level: 'verbose' } }, [], /'level' must be one of/);
      expectRejected({}, [{ sink_type: 'kafka' }], /'sink_type' must be one of/);
      expectRejected('{not json', [], /sink_overrides is not valid JSON/);
      expectRejected({}, '{"file_path":"x.log"}', /custom_sinks must be a JSON array/);
    });

    it('should reject rotation values when they are out of range', () => {
      expectRejected({ 'audit.log': { rotation: { max_bytes: 10 } } }, [], /max_bytes/);
      expectRejected({ 'audit.log': { rotation: { backup_count: 0 } } }, [], /backup_count/);
      expectRejected({ 'audit.log': { rotation: { strategy: 'daily' } } }, [], /strategy/);
    });
  });
});
