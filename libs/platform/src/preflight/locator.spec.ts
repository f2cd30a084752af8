import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathLocator } from './locator';

describe(pathLocator.name, () => {
  let root: string;
  let first: string;
  let second: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'preflight-path-'));
    first = join(root, 'first');
    second = join(root, 'second');
    await mkdir(first);
    await mkdir(second);
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function file(dir: string, name: string, mode: number): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, '#!/bin/sh\necho ok\n');
    await chmod(path, mode);
    return path;
  }

  it('should find an executable when it sits in a PATH directory', async () => {
    const git = await file(second, 'git', 0o755);
    const locate = pathLocator({ PATH: [first, second].join(delimiter) });
    expect(await locate('git')).toBe(git);
  });

  it('should ignore a non-executable file when looking for a binary', async () => {
    await file(first, 'pg_dump', 0o644);
    const locate = pathLocator({ PATH: [first, second].join(delimiter) });
    expect(await locate('pg_dump')).toBeNull();
  });

  it('should skip a non-executable file and keep searching when a later directory has the binary', async () => {
    await file(first, 'git', 0o644);
    const git = await file(second, 'git', 0o755);
    const locate = pathLocator({ PATH: [first, second].join(delimiter) });
    expect(await locate('git')).toBe(git);
  });

  it('should ignore a directory when it carries the binary name', async () => {
    await mkdir(join(first, 'git'));
    const locate = pathLocator({ PATH: first });
    expect(await locate('git')).toBeNull();
  });

  it('should return the first match when several directories hold the binary', async () => {
    const git = await file(first, 'git', 0o755);
    await file(second, 'git', 0o755);
    const locate = pathLocator({ PATH: [first, second].join(delimiter) });
    expect(await locate('git')).toBe(git);
  });

  it('should skip empty and relative entries when PATH has them', async () => {
    const git = await file(second, 'git', 0o755);
    const locate = pathLocator({ PATH: ['', 'relative/dir', join(root, 'absent'), second].join(delimiter) });
    expect(await locate('git')).toBe(git);
  });

  it('should return null when PATH is unset or empty', async () => {
    expect(await pathLocator({})('git')).toBeNull();
    expect(await pathLocator({ PATH: '' })('git')).toBeNull();
  });
});
