import { spawn } from 'node:child_process';
import type { ProbeResult, VersionProbe } from './types';

// A version banner is a line or two; anything past this is noise we refuse to buffer.
const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Runs `<path> --version` and collects stdout and stderr (some tools print their version on stderr).
 *
 * spawn is used rather than execFile because execFile only reports once the output pipes close: a wrapper
 * script killed on timeout can leave a grandchild holding the pipes open, and the "bounded" probe would then
 * wait as long as the grandchild lives. Here the timeout resolves immediately, and on POSIX the child runs in
 * its own process group so the kill reaches its descendants too.
 */
export const defaultVersionProbe: VersionProbe = (path, timeoutMs) =>
  new Promise<ProbeResult>((resolve) => {
    const ownGroup = process.platform !== 'win32';
    let settled = false;
    const clock: { timer?: NodeJS.Timeout } = {};
    const chunks: Buffer[] = [];
    let size = 0;

    const settle = (result: ProbeResult): void => {
      if (settled) {
        return;
      }
      settled = true;
      if (clock.timer !== undefined) {
        clearTimeout(clock.timer);
      }
      resolve(result);
    };

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(path, ['--version'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: ownGroup,
        windowsHide: true,
        // A fixed locale keeps the banner in the wording parseVersion expects.
        env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      });
    } catch (error: unknown) {
      settle({ kind: 'spawn-error', message: error instanceof Error ? error.message : String(error) });
      return;
    }

    const collect = (chunk: Buffer): void => {
      if (size >= MAX_OUTPUT_BYTES) {
        return;
      }
      const room = MAX_OUTPUT_BYTES - size;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);

    child.once('error', (error) => {
      settle({ kind: 'spawn-error', message: error.message });
    });
    // 'close' (not 'exit') so the output is complete. A non-zero exit still yields the output: some tools
    // print their version and exit 1 on --version, and an unreadable banner is handled by the caller.
    child.once('close', () => {
      settle({ kind: 'output', output: Buffer.concat(chunks).toString('utf8') });
    });

    clock.timer = setTimeout(() => {
      if (settled) {
        return;
      }
      settle({ kind: 'timeout' });
      killTree(child, ownGroup);
      // Drop our ends of the pipes so a surviving descendant cannot keep this process's event loop alive.
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, timeoutMs);
  });

function killTree(child: ReturnType<typeof spawn>, ownGroup: boolean): void {
  try {
    if (ownGroup && child.pid !== undefined) {
      // Negative pid signals the whole process group the child leads.
      process.kill(-child.pid, 'SIGKILL');
      return;
    }
  } catch {
    // The group may already be gone; fall through to killing the child alone.
  }
  child.kill('SIGKILL');
}
