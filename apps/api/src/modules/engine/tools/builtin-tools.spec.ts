import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type ToolContext, ToolError } from '@app/domain';

import { BUILTIN_TOOL_NAMES, builtinTools, type BuiltinToolOptions } from './builtin-tools';

describe('builtinTools', () => {
  let root: string;
  let ctx: ToolContext;

  const run = (name: string, args: Record<string, unknown>, options?: BuiltinToolOptions): Promise<string> => {
    const tool = builtinTools(options).find((candidate) => candidate.definition.name === name);
    if (!tool) {
      throw new Error(`no tool ${name}`);
    }
    const parsed = tool.schema.safeParse(args);
    if (!parsed.success) {
      throw new Error(`invalid arguments for ${name}`);
    }
    return tool.execute(parsed.data, ctx);
  };

  const failure = async (promise: Promise<string>): Promise<string> => {
    const error: unknown = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    return (error as ToolError).message;
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'synthorg-tools-'));
    ctx = { root, taskId: 'task-1', agentId: 'agent-1', agentName: 'Ada' };
    await mkdir(join(root, 'src', 'lib'), { recursive: true });
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(root, 'README.md'), '# Demo\nSee src for code.\n');
    await writeFile(join(root, 'src', 'main.ts'), 'const answer = 42;\nexport const TODO = "fix (a+) later";\n');
    await writeFile(join(root, 'src', 'lib', 'util.ts'), 'export const todo = 1;\n');
    await writeFile(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  describe('definitions', () => {
    it('should expose the five tools with strict JSON schemas generated from zod', () => {
      const tools = builtinTools();

      expect(tools.map((tool) => tool.definition.name)).toEqual([...BUILTIN_TOOL_NAMES]);
      for (const tool of tools) {
        expect(tool.definition.description.length).toBeGreaterThan(10);
        expect(tool.definition.parameters).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool.definition.parameters).not.toHaveProperty('$schema');
      }
      const write = tools.find((tool) => tool.definition.name === 'write_file');
      expect(write?.definition.parameters).toMatchObject({ required: ['path', 'content'] });
    });

    it('should declare which tools only read the workspace', () => {
      const access = Object.fromEntries(builtinTools().map((tool) => [tool.definition.name, tool.access]));

      expect(access).toEqual({
        list_files: 'read',
        read_file: 'read',
        search_files: 'read',
        write_file: 'write',
        commit_changes: 'write',
      });
    });

    it('should reject unknown keys when validating arguments', () => {
      const [list] = builtinTools();

      expect(list.schema.safeParse({ path: '.', extra: true }).success).toBe(false);
    });
  });

  describe('list_files', () => {
    it('should list the top level without .git', async () => {
      await expect(run('list_files', {})).resolves.toBe('README.md\nlogo.png\nsrc/');
    });

    it('should list recursively from a subdirectory', async () => {
      await expect(run('list_files', { path: 'src', recursive: true })).resolves.toBe(
        'src/lib/\nsrc/lib/util.ts\nsrc/main.ts',
      );
    });

    it('should cap the listing with a note', async () => {
      const output = await run('list_files', { recursive: true }, { maxListEntries: 2 });

      expect(output.split('\n')).toEqual(['README.md', 'logo.png', expect.stringContaining('truncated at 2 entries')]);
    });

    it('should fail for a missing path, a file and an escape', async () => {
      expect(await failure(run('list_files', { path: 'nope' }))).toContain('does not exist');
      expect(await failure(run('list_files', { path: 'README.md' }))).toContain('not a directory');
      expect(await failure(run('list_files', { path: '..' }))).toContain('escapes');
    });

    it('should report an empty directory', async () => {
      await mkdir(join(root, 'empty'));

      await expect(run('list_files', { path: 'empty' })).resolves.toBe('(empty directory)');
    });
  });

  describe('read_file', () => {
    it('should return the whole text', async () => {
      await expect(run('read_file', { path: 'README.md' })).resolves.toBe('# Demo\nSee src for code.\n');
    });

    it('should return a line range', async () => {
      await writeFile(join(root, 'lines.txt'), 'one\ntwo\nthree\nfour\n');

      await expect(run('read_file', { path: 'lines.txt', offset_line: 2, max_lines: 2 })).resolves.toBe('two\nthree\n');
      await expect(run('read_file', { path: 'lines.txt', offset_line: 4 })).resolves.toBe('four\n');
      await expect(run('read_file', { path: 'lines.txt', max_lines: 1 })).resolves.toBe('one\n');
      expect(await failure(run('read_file', { path: 'lines.txt', offset_line: 9 }))).toContain('past the end');
    });

    it('should refuse binary, oversized, missing and directory paths', async () => {
      await writeFile(join(root, 'big.txt'), 'x'.repeat(2048));

      expect(await failure(run('read_file', { path: 'logo.png' }))).toContain('binary');
      expect(await failure(run('read_file', { path: 'big.txt' }, { maxReadBytes: 1024 }))).toContain('at most 1024');
      expect(await failure(run('read_file', { path: 'missing.txt' }))).toContain('does not exist');
      expect(await failure(run('read_file', { path: 'src' }))).toContain('not a file');
      expect(await failure(run('read_file', { path: '.git/HEAD' }))).toContain('.git');
    });
  });

  describe('write_file', () => {
    it('should create parent directories and then be listed', async () => {
      await expect(run('write_file', { path: 'docs/guide/intro.md', content: 'héllo\n' })).resolves.toBe(
        'wrote 7 bytes to docs/guide/intro.md',
      );

      await expect(run('list_files', { path: 'docs', recursive: true })).resolves.toBe(
        'docs/guide/\ndocs/guide/intro.md',
      );
      await expect(readFile(join(root, 'docs', 'guide', 'intro.md'), 'utf8')).resolves.toBe('héllo\n');
    });

    it('should overwrite by default and append on request', async () => {
      await run('write_file', { path: 'log.txt', content: 'a\n' });
      await run('write_file', { path: 'log.txt', content: 'b\n' });
      await run('write_file', { path: 'log.txt', content: 'c\n', mode: 'append' });

      await expect(readFile(join(root, 'log.txt'), 'utf8')).resolves.toBe('b\nc\n');
    });

    it('should refuse directories, .git, escapes and oversized content', async () => {
      expect(await failure(run('write_file', { path: 'src', content: 'x' }))).toContain('is a directory');
      expect(await failure(run('write_file', { path: '.git/hooks/pre-commit', content: 'x' }))).toContain('.git');
      expect(await failure(run('write_file', { path: '../evil.txt', content: 'x' }))).toContain('escapes');
      expect(await failure(run('write_file', { path: 'a.txt', content: 'éé' }, { maxWriteBytes: 3 }))).toContain(
        'at most 3 bytes',
      );
      expect(await failure(run('write_file', { path: 'README.md/child', content: 'x' }))).toContain('could not create');
    });

    it('should refuse to write through a symlink leaving the workspace', async () => {
      const outside = await mkdtemp(join(tmpdir(), 'synthorg-outside-'));
      await symlink(outside, join(root, 'out'));
      try {
        expect(await failure(run('write_file', { path: 'out/x.txt', content: 'x' }))).toContain('symbolic link');
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    });
  });

  describe('search_files', () => {
    it('should find a literal pattern, with regex characters taken literally', async () => {
      await expect(run('search_files', { pattern: '(a+)' })).resolves.toBe(
        'src/main.ts:2: export const TODO = "fix (a+) later";',
      );
    });

    it('should match a regular expression when asked', async () => {
      const output = await run('search_files', { pattern: '^export const [Tt][Oo]', regex: true });

      expect(output).toBe(
        'src/lib/util.ts:1: export const todo = 1;\nsrc/main.ts:2: export const TODO = "fix (a+) later";',
      );
    });

    it('should limit the search to a path and cap the results', async () => {
      await expect(run('search_files', { pattern: 'export', path: 'src/lib' })).resolves.toBe(
        'src/lib/util.ts:1: export const todo = 1;',
      );
      const capped = await run('search_files', { pattern: 'e', max_results: 1 });
      expect(capped).toBe('README.md:1: # Demo\n[stopped at 1 results]');
    });

    it('should skip binary, large and .git files and say when nothing matches', async () => {
      await writeFile(join(root, 'big.txt'), `needle\n${'x'.repeat(4096)}`);

      await expect(run('search_files', { pattern: 'PNG' })).resolves.toBe('no matches');
      await expect(run('search_files', { pattern: 'refs/heads' })).resolves.toBe('no matches');
      await expect(run('search_files', { pattern: 'needle' }, { maxSearchFileBytes: 1024 })).resolves.toBe(
        'no matches',
      );
    });

    it('should reject an invalid regular expression', async () => {
      expect(await failure(run('search_files', { pattern: '([a-', regex: true }))).toContain(
        'invalid regular expression',
      );
    });

    it('should stop a catastrophically backtracking expression', async () => {
      await writeFile(join(root, 'slow.txt'), `${'a'.repeat(40)}!\n`);

      const message = await failure(run('search_files', { pattern: '^(a+)+$', regex: true }, { regexBudgetMs: 50 }));

      expect(message).toContain('took too long');
    });
  });

  describe('commit_changes', () => {
    it('should return the commit id or say there was nothing to commit', async () => {
      const commit = jest
        .fn<ReturnType<NonNullable<ToolContext['commit']>>, [string]>()
        .mockResolvedValueOnce({ committed: true, sha: 'a'.repeat(40) })
        .mockResolvedValueOnce({ committed: false, sha: null });
      ctx = { ...ctx, commit };

      await expect(run('commit_changes', { message: '  Add feature  ' })).resolves.toBe('a'.repeat(40));
      await expect(run('commit_changes', { message: 'again' })).resolves.toBe('nothing to commit');
      expect(commit).toHaveBeenNthCalledWith(1, 'Add feature');
    });

    it('should fail when committing is not wired for the task', async () => {
      expect(await failure(run('commit_changes', { message: 'x' }))).toContain('not available');
    });

    it('should reject empty and overlong messages when validating', () => {
      const commit = builtinTools().find((tool) => tool.definition.name === 'commit_changes');

      expect(commit?.schema.safeParse({ message: '   ' }).success).toBe(false);
      expect(commit?.schema.safeParse({ message: 'x'.repeat(501) }).success).toBe(false);
    });
  });
});
