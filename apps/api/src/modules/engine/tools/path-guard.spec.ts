import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ToolError } from '@app/domain';

import { isInside, resolveInside } from './path-guard';

describe('resolveInside', () => {
  let sandbox: string;
  let root: string;
  let realRoot: string;

  beforeAll(async () => {
    sandbox = await mkdtemp(join(tmpdir(), 'synthorg-guard-'));
    root = join(sandbox, 'root');
    await mkdir(join(root, 'src'), { recursive: true });
    await mkdir(join(root, '.git'));
    await mkdir(join(sandbox, 'outside'));
    await writeFile(join(sandbox, 'outside', 'secret.txt'), 'secret');
    await writeFile(join(root, 'src', 'a.ts'), 'export {};');
    await symlink(join(sandbox, 'outside'), join(root, 'escape'));
    await symlink(join(root, 'src'), join(root, 'src-link'));
    await symlink(join(root, '.git'), join(root, 'meta'));
    await symlink(join(sandbox, 'nowhere'), join(root, 'dangling'));
    realRoot = await realpath(root);
  });

  afterAll(async () => {
    await rm(sandbox, { recursive: true, force: true });
  });

  it.each([
    ['../x', 'escapes the workspace'],
    ['a/../../b', 'escapes the workspace'],
    ['src/../..', 'escapes the workspace'],
    ['/etc/passwd', 'must be relative'],
    ['C:\\Windows\\win.ini', 'must be relative'],
    ['.git/config', 'inside .git'],
    ['src/../.git/HEAD', 'inside .git'],
    ['.GIT/config', 'inside .git'],
    ['.git', 'inside .git'],
    ['src/a\0.ts', 'NUL'],
    ['escape/secret.txt', 'symbolic link'],
    ['escape/new.txt', 'symbolic link'],
    ['escape', 'symbolic link'],
    ['meta/config', 'inside .git'],
    ['dangling', 'dangling symbolic link'],
    ['dangling/child.txt', 'dangling symbolic link'],
  ])('should reject %j', async (path, fragment) => {
    const error: unknown = await resolveInside(root, path).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toContain(fragment);
  });

  it.each([
    ['src/a.ts', ['src', 'a.ts']],
    ['src/new/deeper/file.ts', ['src', 'new', 'deeper', 'file.ts']],
    ['./src/../src/a.ts', ['src', 'a.ts']],
    ['src-link/a.ts', ['src', 'a.ts']],
    ['.gitignore', ['.gitignore']],
    ['.', []],
    ['', []],
  ])('should resolve %j inside the root', async (path, segments) => {
    await expect(resolveInside(root, path)).resolves.toBe(join(realRoot, ...segments));
  });

  it('should tell whether a path lies inside a root', () => {
    expect(isInside('/w', '/w')).toBe(true);
    expect(isInside('/w', '/w/a')).toBe(true);
    expect(isInside('/w', '/w2')).toBe(false);
    expect(isInside('/w', '/')).toBe(false);
    expect(isInside('/w', '/w/..a')).toBe(true);
  });
});
