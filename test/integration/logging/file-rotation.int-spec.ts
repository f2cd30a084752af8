import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { createLogging, type LoggingRuntime, validateSinkSettings } from '@app/platform';
import { CaptureStream, waitFor } from './logging-test-helpers';

/** ~200 bytes per record, so a few dozen records cross a 2 KiB limit several times. */
const FILLER = 'x'.repeat(150);

function writeRecords(runtime: LoggingRuntime, count: number): void {
  const logger = runtime.forName('engine.loop');
  for (let i = 0; i < count; i++) {
    logger.info({ seq: i, filler: FILLER }, 'engine.step.completed');
  }
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('file sinks with real files', () => {
  let dir: string;
  let runtime: LoggingRuntime | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-rotation-'));
  });

  afterEach(async () => {
    await runtime?.close();
    runtime = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(overrides: unknown, customSinks: unknown = []): LoggingRuntime {
    const settings = validateSinkSettings(overrides, customSinks);
    runtime = createLogging({ dir, ...settings, console: { destination: new CaptureStream(), colorize: false } });
    return runtime;
  }

  it('should rotate into numbered backups and keep only backup_count of them when max_bytes is exceeded', async () => {
    const logging = start({ 'synthorg.log': { rotation: { max_bytes: 2048, backup_count: 2 } } });
    // Written in rounds so the live file crosses the limit many times over.
    for (let round = 0; round < 8; round++) {
      writeRecords(logging, 15);
      await logging.flush();
    }
    await waitFor(() => existsSync(join(dir, 'synthorg.log.2')), 'synthorg.log.2');
    const files = readdirSync(dir).filter((name) => name.startsWith('synthorg.log'));
    expect(files.sort()).toEqual(['synthorg.log', 'synthorg.log.1', 'synthorg.log.2']);
    const backup = jsonLines(readFileSync(join(dir, 'synthorg.log.1'), 'utf8'));
    expect(backup.length).toBeGreaterThan(0);
    expect(backup[0]).toMatchObject({ event: 'engine.step.completed', logger: 'synthorg.engine.loop' });
    // Rotation happens between chunks, so a backup overshoots the limit by at most one chunk (max_bytes / 16).
    expect(statSync(join(dir, 'synthorg.log.1')).size).toBeLessThan(2048 + 2048 / 16 + 400);
  });

  it('should gzip rotated files as name.log.N.gz when compress_rotated is on', async () => {
    const logging = start({ 'debug.log': { rotation: { max_bytes: 2048, backup_count: 3, compress_rotated: true } } });
    for (let round = 0; round < 4; round++) {
      writeRecords(logging, 15);
      await logging.flush();
    }
    await waitFor(() => existsSync(join(dir, 'debug.log.1.gz')), 'debug.log.1.gz');
    expect(existsSync(join(dir, 'debug.log.1'))).toBe(false);
    const restored = jsonLines(gunzipSync(readFileSync(join(dir, 'debug.log.1.gz'))).toString('utf8'));
    expect(restored[0]).toMatchObject({ event: 'engine.step.completed' });
    const backups = readdirSync(dir).filter((name) => /^debug\.log\.\d+\.gz$/.test(name));
    expect(backups.length).toBeLessThanOrEqual(3);
  });

  it('should keep appending to one file when the strategy is external', async () => {
    const logging = start({ 'synthorg.log': { rotation: { strategy: 'external', max_bytes: 1024 } } });
    writeRecords(logging, 60);
    await logging.flush();
    const files = readdirSync(dir).filter((name) => name.startsWith('synthorg.log'));
    expect(files).toEqual(['synthorg.log']);
    expect(statSync(join(dir, 'synthorg.log')).size).toBeGreaterThan(1024 * 5);
    expect(jsonLines(readFileSync(join(dir, 'synthorg.log'), 'utf8')).map((r) => r['seq'])).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
  });

  it('should rotate a custom file sink in its subdirectory when it has its own rotation', async () => {
    const logging = start({}, [{ file_path: 'custom/engine.log', rotation: { max_bytes: 2048, backup_count: 1 } }]);
    for (let round = 0; round < 4; round++) {
      writeRecords(logging, 15);
      await logging.flush();
    }
    await waitFor(() => existsSync(join(dir, 'custom', 'engine.log.1')), 'custom/engine.log.1');
    expect(readdirSync(join(dir, 'custom')).sort()).toEqual(['engine.log', 'engine.log.1']);
  });

  it('should keep every record across rotations when writes continue during rotation', async () => {
    const logging = start({ 'agent_activity.log': { rotation: { max_bytes: 4096, backup_count: 50 } } });
    writeRecords(logging, 200);
    await logging.flush();
    const names = readdirSync(dir).filter((name) => name.startsWith('agent_activity.log'));
    const seqs = names
      .flatMap((name) => jsonLines(readFileSync(join(dir, name), 'utf8')))
      .map((record) => record['seq'] as number)
      .sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });
});
