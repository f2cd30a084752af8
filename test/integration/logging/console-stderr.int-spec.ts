import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLogging, validateSinkSettings } from '@app/platform';

/** The console sink's own descriptor path (stderr in production), written to a file the test reads. */
describe('console sink on a file descriptor', () => {
  let dir: string;
  let out: string;
  let fd: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-console-'));
    out = join(dir, 'stderr.txt');
    fd = openSync(out, 'w');
  });

  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('should write every record as one text line, in order, by the time close resolves', async () => {
    const runtime = createLogging({ dir: join(dir, 'logs'), console: { fd, colorize: false } });
    const access = runtime.forName('api.access');
    for (let i = 0; i < 500; i++) {
      access.info({ n: i, token: 'secret-value' }, 'api.request.completed');
    }
    runtime.forName('engine').error({ err: new Error('boom') }, 'engine.run.failed');
    await runtime.close();
    await expect(runtime.close()).resolves.toBeUndefined();
    const lines = readFileSync(out, 'utf8').split('\n');
    const access500 = lines.filter((line) => line.includes('synthorg.api.access api.request.completed'));
    expect(access500).toHaveLength(500);
    expect(access500[0]).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} [+-]\d{4}\] INFO: /);
    expect(access500[0]).toContain('{"n":0,"token":"**REDACTED**"}');
    expect(access500[499]).toContain('{"n":499,');
    const failure = lines.findIndex((line) => line.includes('ERROR: synthorg.engine engine.run.failed'));
    expect(failure).toBeGreaterThan(0);
    expect(lines[failure]).toContain('"message":"boom"');
    expect(lines[failure + 1]).toMatch(/^ {8}at /); // the stack, one frame per line
    expect(readFileSync(out, 'utf8')).not.toContain('\u001b[');
  });

  it('should write JSON lines when the console is switched to json_format', async () => {
    const { sinkOverrides } = validateSinkSettings({ __console__: { json_format: true, level: 'warning' } }, []);
    const runtime = createLogging({ dir: join(dir, 'logs'), sinkOverrides, console: { fd } });
    runtime.forName('core').info('core.thing.done');
    runtime.forName('core').warn({ id: 7 }, 'core.thing.slow');
    await runtime.close();
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 'WARNING', logger: 'synthorg.core', id: 7 });
  });
});
