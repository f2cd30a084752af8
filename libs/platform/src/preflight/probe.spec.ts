import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultVersionProbe } from './probe';

describe('defaultVersionProbe', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'preflight-probe-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function script(name: string, body: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  }

  it('should return timeout promptly when the binary sleeps past the bound', async () => {
    // The sleep is a grandchild of the probe: the probe must not wait for it to release the output pipes.
    const path = await script('slow', 'sleep 10');
    const started = Date.now();
    const result = await defaultVersionProbe(path, 300);
    expect(result).toEqual({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('should return the output when the binary prints its version', async () => {
    const path = await script('git', 'echo "git version 2.53.0"');
    expect(await defaultVersionProbe(path, 5000)).toEqual({ kind: 'output', output: 'git version 2.53.0\n' });
  });

  it('should pass --version to the binary when probing', async () => {
    const path = await script('echo-args', 'echo "args: $*"');
    expect(await defaultVersionProbe(path, 5000)).toEqual({ kind: 'output', output: 'args: --version\n' });
  });

  it('should include stderr and keep the output when the binary prints there and exits non-zero', async () => {
    const path = await script('noisy', 'echo "tool 1.2.3" >&2; exit 1');
    expect(await defaultVersionProbe(path, 5000)).toEqual({ kind: 'output', output: 'tool 1.2.3\n' });
  });

  it('should return spawn-error when the file cannot be executed', async () => {
    const path = join(dir, 'not-executable');
    await writeFile(path, '#!/bin/sh\necho 1.0\n');
    await chmod(path, 0o644);
    const result = await defaultVersionProbe(path, 5000);
    expect(result).toMatchObject({ kind: 'spawn-error', message: expect.stringMatching(/EACCES/) });
  });

  it('should return spawn-error when the path does not exist', async () => {
    const result = await defaultVersionProbe(join(dir, 'absent'), 5000);
    expect(result).toMatchObject({ kind: 'spawn-error', message: expect.stringMatching(/ENOENT/) });
  });
});
