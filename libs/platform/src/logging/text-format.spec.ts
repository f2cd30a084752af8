import { createTextFormatter } from './text-format';

const ESC = '\u001b[';

function record(fields: Record<string, unknown>): string {
  return `${JSON.stringify(fields)}\n`;
}

describe('text format', () => {
  const plain = createTextFormatter(false);

  it('should render heading and fields on one line, in local time', () => {
    const line =
      '{"level":"INFO","time":"2026-11-23T21:23:43.445Z","logger":"synthorg.api.access",' +
      '"request_id":"r-1","req":{"method":"GET","url":"/api/v1/health"},"duration_ms":0.07,"event":"api.request.completed"}\n';
    const text = plain(line);
    expect(text).toMatch(
      /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:43\.445 [+-]\d{4}\] INFO: synthorg\.api\.access api\.request\.completed /,
    );
    expect(text).toContain(' {"request_id":"r-1","req":{"method":"GET","url":"/api/v1/health"},"duration_ms":0.07}\n');
    expect(text.split('\n')).toHaveLength(2);
  });

  it('should render the same record the same way whether it is sliced or parsed', () => {
    const fields = {
      level: 'WARNING',
      time: '2026-01-02T03:04:05.006Z',
      logger: 'synthorg.core',
      a: 1,
      event: 'e.f.g',
    };
    const sliced = plain(record(fields));
    // Reordered keys leave pino's layout, so this one takes the parsing path.
    const parsed = plain(
      record({ event: 'e.f.g', a: 1, logger: 'synthorg.core', time: fields.time, level: 'WARNING' }),
    );
    expect(parsed).toBe(sliced);
  });

  it('should unfold an error stack below the record', () => {
    const error = new Error('boom');
    const text = plain(
      record({
        level: 'ERROR',
        time: '2026-01-02T03:04:05.006Z',
        logger: 'synthorg.engine',
        err: { type: 'Error', message: 'boom', stack: error.stack },
        event: 'engine.run.failed',
      }),
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toContain('ERROR: synthorg.engine engine.run.failed {"err":{"type":"Error","message":"boom"}}');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((frame) => /^ {8}at /.test(frame))).toBe(true);
  });

  it('should never pass control characters through to the terminal', () => {
    const text = plain(
      record({
        level: 'INFO',
        time: '2026-01-02T03:04:05.006Z',
        logger: 'synthorg.x',
        v: `a${ESC}31mb`,
        event: `e${ESC}2J`,
      }),
    );
    expect(text).not.toContain('\u001b');
    const parsed = plain(record({ event: `e\u001b[2J`, level: 'INFO', logger: 'synthorg.x' }));
    expect(parsed).not.toContain('\u001b');
  });

  it('should colour level, heading and fields only when asked to', () => {
    const line = record({ level: 'ERROR', time: '2026-01-02T03:04:05.006Z', logger: 'synthorg.x', a: 1, event: 'e' });
    expect(createTextFormatter(true)(line)).toContain(`${ESC}31mERROR${ESC}39m`);
    expect(plain(line)).not.toContain(ESC);
  });

  it('should pass anything that is not a JSON object through as a line', () => {
    expect(plain('not json')).toBe('not json\n');
    expect(plain('[1,2]\n')).toBe('[1,2]\n');
  });

  it('should render a record without fields or logger', () => {
    expect(plain(record({ level: 'INFO', time: '2026-01-02T03:04:05.006Z', event: 'only.event.here' }))).toMatch(
      /INFO: only\.event\.here\n$/,
    );
  });
});
