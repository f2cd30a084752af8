import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type { createLogging as CreateLogging } from '@app/platform';

/**
 * The server runs its log sinks on a thread of their own, which needs compiled output: this spec
 * loads the built logging module, so the real thread entry runs. The same records are logged once
 * with the sinks inline and once on the sink thread; every file and the console must come out the
 * same, and everything must be written by the time close() resolves.
 */
const built = resolve(__dirname, '../../dist/libs/platform/src/logging/logging.factory.js');

type Mode = 'inline' | 'worker';

describe('log sinks on their own thread (built output)', () => {
  let dir: string;

  beforeAll(() => {
    if (!existsSync(built)) {
      throw new Error(`${built} does not exist: run npm run build first`);
    }
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-sink-thread-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function logEverything(mode: Mode): Promise<{ files: Record<string, string[]>; console: string[] }> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createLogging } = require(built) as { createLogging: typeof CreateLogging };
    const logs = join(dir, mode, 'logs');
    mkdirSync(join(dir, mode));
    const consolePath = join(dir, mode, 'stderr.txt');
    const fd = openSync(consolePath, 'w');
    try {
      const runtime = createLogging({
        dir: logs,
        rootLevel: 'debug',
        console: { fd, colorize: false },
        sinkThread: mode,
      });
      const access = runtime.forName('api.access');
      for (let i = 0; i < 2_000; i++) {
        access.info({ n: i, req: { method: 'GET', url: `/api/v1/x/${i}` } }, 'api.request.completed');
      }
      runtime.forName('security.auth').warn({ username: 'ceo', password: 'never-shown' }, 'auth.login.failed');
      runtime.forName('engine.loop').debug({ turn: 1 }, 'engine.turn.started');
      runtime.forName('budget').info({ cost_usd: 0.5 }, 'budget.cost.recorded');
      runtime.forName('engine.loop').error({ err: new Error('boom') }, 'engine.run.failed');
      await runtime.flush();
      runtime.forName('api').info('api.shutdown.started');
      await runtime.close();
    } finally {
      closeSync(fd);
    }
    const files: Record<string, string[]> = {};
    for (const name of readdirSync(logs).sort()) {
      files[name] = readFileSync(join(logs, name), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.replace(/"time":"[^"]*"/, '"time":"T"').replace(/"stack":"[^"]*"/, '"stack":"S"'));
    }
    const console = readFileSync(consolePath, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('['))
      .map((line) => line.replace(/^\[[^\]]*\]/, '[T]'));
    return { files, console };
  }

  it('should write every record to the same sinks, in the same order, as inline sinks do', async () => {
    const inline = await logEverything('inline');
    const threaded = await logEverything('worker');
    expect(threaded).toEqual(inline);
    // And the expected routing, so equal cannot mean equally empty.
    expect(threaded.files['access.log']).toHaveLength(2_001); // the api logger's shutdown line too
    expect(threaded.files['access.log']?.[1999]).toContain('"n":1999');
    expect(threaded.files['synthorg.log']).toHaveLength(2_004);
    expect(threaded.files['debug.log']).toHaveLength(2_005);
    expect(threaded.files['errors.log']).toEqual([expect.stringContaining('engine.run.failed')]);
    expect(threaded.files['audit.log']).toEqual([expect.stringContaining('"password":"**REDACTED**"')]);
    expect(threaded.files['cost_usage.log']).toEqual([expect.stringContaining('budget.cost.recorded')]);
    expect(threaded.files['agent_activity.log']).toHaveLength(2);
    expect(threaded.console).toHaveLength(2_004);
    expect(threaded.console[2_003]).toBe('[T] INFO: synthorg.api api.shutdown.started');
  });

  /** Logs, reconfigures while records are still queued, logs again; returns what every file holds. */
  async function reconfigureMidway(mode: Mode): Promise<Record<string, string[]>> {
    const { createLogging } = require(built) as { createLogging: typeof CreateLogging }; // eslint-disable-line @typescript-eslint/no-require-imports
    const logs = join(dir, `${mode}-live`, 'logs');
    const fd = openSync(join(dir, `${mode}-live.txt`), 'w');
    try {
      const runtime = createLogging({
        dir: logs,
        rootLevel: 'info',
        console: { fd, colorize: false },
        sinkThread: mode,
      });
      const backup = runtime.forName('backup.job');
      for (let i = 0; i < 1_000; i++) {
        backup.info({ n: i }, 'backup.before');
      }
      backup.debug('backup.debug.before');
      const change = runtime.reconfigure({
        rootLevel: 'debug',
        enableCorrelation: true,
        sinkOverrides: { 'errors.log': { enabled: false } },
        customSinks: [
          {
            sink_type: 'file',
            file_path: 'extra/backup.log',
            level: 'debug',
            json_format: true,
            rotation: { strategy: 'builtin', max_bytes: 10_485_760, backup_count: 5, compress_rotated: false },
            routing_prefixes: ['synthorg.backup.'],
          },
        ],
      });
      for (let i = 0; i < 1_000; i++) {
        backup.info({ n: i }, 'backup.during');
      }
      await change;
      backup.debug('backup.debug.after');
      backup.error('backup.error.after');
      expect(runtime.sinks().find((s) => s.identifier === 'errors.log')?.enabled).toBe(false);
      await runtime.close();
    } finally {
      closeSync(fd);
    }
    const files: Record<string, string[]> = {};
    for (const name of ['backup.log', 'debug.log', 'errors.log', 'extra/backup.log']) {
      const path = join(logs, name);
      files[name] = existsSync(path)
        ? readFileSync(path, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => line.replace(/"time":"[^"]*"/, '"time":"T"'))
        : [];
    }
    return files;
  }

  it('should apply a reconfiguration on the sink thread in order with the records, losing none', async () => {
    const inline = await reconfigureMidway('inline');
    const threaded = await reconfigureMidway('worker');
    expect(threaded).toEqual(inline);
    const events = (lines: string[] | undefined) => (lines ?? []).map((line) => /"event":"([^"]+)"/.exec(line)?.[1]);
    const backup = events(threaded['backup.log']);
    expect(backup.filter((e) => e === 'backup.before')).toHaveLength(1_000);
    expect(backup.filter((e) => e === 'backup.during')).toHaveLength(1_000);
    expect(backup).not.toContain('backup.debug.before');
    expect(events(threaded['debug.log'])).toContain('backup.debug.after');
    expect(events(threaded['errors.log'])).toEqual([]);
    // Records written once the change was asked for reach the new sink, before the change resolved or after.
    const extra = events(threaded['extra/backup.log']);
    expect(extra.filter((e) => e === 'backup.during')).toHaveLength(1_000);
    expect(extra).not.toContain('backup.before');
    expect(extra.slice(-2)).toEqual(['backup.debug.after', 'backup.error.after']);
  });
});
