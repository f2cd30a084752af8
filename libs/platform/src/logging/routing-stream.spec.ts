import { createRoutingStream, loggerNameOf, matchesRouting, stringFieldOf } from './routing-stream';

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

  it('should forward only matching records when wrapped around a target', () => {
    const written: string[] = [];
    const stream = createRoutingStream(['synthorg.api.'], { write: (line) => written.push(line) });
    stream.write('{"logger":"synthorg.api.access","event":"a"}\n');
    stream.write('{"logger":"synthorg.engine.loop","event":"b"}\n');
    stream.write('{"event":"c"}\n');
    expect(written).toEqual(['{"logger":"synthorg.api.access","event":"a"}\n']);
  });
});
