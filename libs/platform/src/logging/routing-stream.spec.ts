import pino from 'pino';

import {
  createLevelledStream,
  createRecordRouter,
  loggerNameOf,
  matchesRouting,
  stringFieldOf,
} from './routing-stream';

describe('routing stream', () => {
  it('should read the logger binding when the record also nests a logger field', () => {
    const line = '{"level":"INFO","time":"t","logger":"synthorg.api.access","ctx":{"logger":"other"},"event":"e"}\n';
    expect(loggerNameOf(line)).toBe('synthorg.api.access');
    expect(stringFieldOf(line, 'level')).toBe('INFO');
    expect(loggerNameOf('{"level":"INFO","event":"e"}')).toBeUndefined();
  });

  it('should match prefixes and the bare parent name when the prefix ends with a dot', () => {
    const prefixes = ['synthorg.security.', 'synthorg.hr.'];
    expect(matchesRouting('synthorg.security.auth', prefixes)).toBe(true);
    expect(matchesRouting('synthorg.security', prefixes)).toBe(true);
    expect(matchesRouting('synthorg.securityx', prefixes)).toBe(false);
    expect(matchesRouting('synthorg.api.access', prefixes)).toBe(false);
  });

  it('should send each record to the sinks that take its level and logger, once each', () => {
    const seen: Record<string, string[]> = { all: [], api: [], errors: [] };
    const sink = (name: string) => ({ write: (line: string) => seen[name]?.push(line) });
    const router = createRecordRouter([
      { level: 30, prefixes: [], destination: sink('all') },
      { level: 20, prefixes: ['synthorg.api.'], destination: sink('api') },
      { level: 50, prefixes: [], destination: sink('errors') },
    ]);
    const logger = pino({ level: 'debug', base: null, timestamp: false }, createLevelledStream(router));
    const api = logger.child({ logger: 'synthorg.api.access' });
    const engine = logger.child({ logger: 'synthorg.engine.loop' });
    api.debug('a');
    api.info('b');
    engine.info('c');
    engine.error('d');
    logger.info('e'); // no logger name: catch-all sinks only
    api.info('f'); // a remembered route
    const messages = (name: string) => (seen[name] ?? []).map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages('all')).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(messages('api')).toEqual(['a', 'b', 'f']);
    expect(messages('errors')).toEqual(['d']);
  });
});
