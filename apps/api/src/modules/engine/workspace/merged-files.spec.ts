import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GitRunner } from './git-runner';
import { MergedFiles } from './merged-files';

describe('MergedFiles', () => {
  const git = new GitRunner();
  const identity = ['-c', 'user.name=Engine', '-c', 'user.email=engine@example.invalid'];
  let workspace: string;
  let repo: string;
  let mergeSha: string;

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'merged-files-'));
    repo = join(workspace, 'repo');
    await mkdir(repo);
    const run = (args: string[]) => git.run([...identity, ...args], { cwd: repo });
    await run(['init', '-q', '-b', 'main']);
    await run(['commit', '-q', '--allow-empty', '-m', 'Initialize']);
    await run(['switch', '-q', '-c', 'task/t-1']);
    await writeFile(join(repo, 'report.md'), '# Report\n');
    await run(['add', 'report.md']);
    await run(['commit', '-q', '-m', 'Write the report']);
    await run(['switch', '-q', 'main']);
    await run(['merge', '-q', '--no-ff', '-m', 'Merge t-1: the report', 'task/t-1']);
    mergeSha = (await run(['rev-parse', 'HEAD'])).trim();
  });

  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  it("should find a task's merge in the base branch's history when nothing was noted", async () => {
    const merged = new MergedFiles(workspace);

    expect(await merged.ofTask('t-1')).toEqual({ sha: mergeSha, paths: ['report.md'] });
    expect(await merged.ofTask('t-2')).toBeNull();
  });

  it('should take a noted merge at its word, once, without searching the history', async () => {
    const merged = new MergedFiles(workspace);
    const runResult = jest.spyOn(GitRunner.prototype, 'runResult');
    try {
      merged.note('t-1', mergeSha);
      merged.note('t-3', null);

      expect(await merged.ofTask('t-1')).toEqual({ sha: mergeSha, paths: ['report.md'] });
      expect(await merged.ofTask('t-3')).toBeNull();
      expect(runResult).not.toHaveBeenCalledWith(expect.arrayContaining(['log']), expect.anything());

      // A note is read once: the next question searches the history.
      expect(await merged.ofTask('t-1')).toEqual({ sha: mergeSha, paths: ['report.md'] });
      expect(runResult).toHaveBeenCalledWith(expect.arrayContaining(['log']), expect.anything());
    } finally {
      runResult.mockRestore();
    }
  });

  it('should search the history once a note is older than a minute', async () => {
    const merged = new MergedFiles(workspace);
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1_000_000);
      merged.note('t-1', null);
      now.mockReturnValue(1_000_000 + 60_001);

      expect(await merged.ofTask('t-1')).toEqual({ sha: mergeSha, paths: ['report.md'] });
    } finally {
      now.mockRestore();
    }
  });
});
