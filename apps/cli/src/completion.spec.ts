import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { completionScript, completionTree } from './completion';
import { allCommands, buildProgram } from './program';

const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} };

describe('the command tree and its completion scripts', () => {
  const program = buildProgram(io, () => undefined);

  it('should describe every command and every option (complete --help)', () => {
    for (const command of allCommands(program)) {
      expect({ command: command.name(), description: command.description() }).toEqual({
        command: command.name(),
        description: expect.stringMatching(/\S/),
      });
      for (const option of command.options) {
        expect({ option: option.flags, description: option.description }).toEqual({
          option: option.flags,
          description: expect.stringMatching(/\S/),
        });
      }
    }
  });

  it('should list each path with its subcommands and options', () => {
    const tree = completionTree(program);
    const at = (path: string) => tree.find((n) => n.path === path);
    expect(at('')?.commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(['login', 'tasks', 'approvals', 'backup', 'audit', 'events', 'completion']),
    );
    expect(at('agents autonomy')?.commands.map((c) => c.name)).toEqual(['get', 'set']);
    expect(at('agents')?.commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(['hire', 'edit', 'evaluate-level', 'fire-request', 'release-name', 'onboarding']),
    );
    expect(at('hiring')?.commands.map((c) => c.name)).toEqual(['list', 'show', 'select', 'instantiate']);
    expect(at('memory org')?.commands.map((c) => c.name)).toEqual(['list', 'add', 'delete']);
    expect(at('agents hire')?.options.map((o) => o.flag)).toEqual(expect.arrayContaining(['--skill', '--template']));
    const restore = at('backup restore')?.options.map((o) => o.flag);
    expect(restore).toEqual(expect.arrayContaining(['--confirm', '--components', '--json', '--profile', '--help']));
    expect(restore).not.toContain('--version');
    expect(at('tasks list')?.options.find((o) => o.flag === '--status')?.takesValue).toBe(true);
  });

  it('should print a bash script that bash parses and that offers the commands', () => {
    const script = completionScript('bash', program);
    const dir = mkdtempSync(join(tmpdir(), 'synthorg-completion-'));
    try {
      const file = join(dir, 'synthorg.bash');
      writeFileSync(file, script);
      execFileSync('bash', ['-n', file]);
      const offered = execFileSync(
        'bash',
        [
          '-c',
          `source ${file}; COMP_WORDS=(synthorg agents autonomy ''); COMP_CWORD=3; _synthorg; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      );
      expect(offered.trim().split(' ')).toEqual(expect.arrayContaining(['get', 'set']));
      const options = execFileSync(
        'bash',
        [
          '-c',
          `source ${file}; COMP_WORDS=(synthorg backup restore --co); COMP_CWORD=3; _synthorg; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      );
      expect(options.trim().split(' ').sort()).toEqual(['--components', '--confirm']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should print zsh and fish scripts naming the same commands', () => {
    const zsh = completionScript('zsh', program);
    expect(zsh.startsWith('#compdef synthorg')).toBe(true);
    expect(zsh).toContain("'agents autonomy') entries=('get:the level in force and where it comes from'");
    const fish = completionScript('fish', program);
    expect(fish).toContain(`complete -c synthorg -f -n "test (__synthorg_path) = 'agents autonomy'" -a 'set'`);
    expect(fish).toContain(`-n "test (__synthorg_path) = 'backup restore'" -l 'confirm'`);
  });
});
