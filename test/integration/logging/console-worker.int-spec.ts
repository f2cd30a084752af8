import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createLogging, validateSinkSettings } from '@app/platform';

describe('console sink on a worker thread', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-console-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['text', false],
    ['json', true],
  ])('should start, flush and stop the %s console worker when no destination is given', async (_mode, json) => {
    // Level critical keeps the test run's stderr clean while the worker still starts and shuts down.
    const { sinkOverrides } = validateSinkSettings({ __console__: { level: 'critical', json_format: json } }, []);
    const runtime = createLogging({ dir, sinkOverrides, console: { worker: true } });
    runtime.root.error('core.thing.failed');
    await runtime.flush();
    await expect(runtime.close()).resolves.toBeUndefined();
    await expect(runtime.close()).resolves.toBeUndefined();
  });
});
