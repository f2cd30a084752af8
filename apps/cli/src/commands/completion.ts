// completion bash|zsh|fish: print the shell's completion script.
import type { Command } from 'commander';

import { completionScript, type Shell, SHELLS } from '../completion';
import type { Context } from '../context';
import { usage } from '../errors';
import type { Registry } from '../program';

export function registerCompletion(program: Command, r: Registry): void {
  program
    .command('completion')
    .description('print the completion script of a shell (bash, zsh, fish)')
    .argument('<shell>', SHELLS.join(', '))
    .addHelpText(
      'after',
      '\nInstall:\n' +
        '  bash  echo \'eval "$(synthorg completion bash)"\' >> ~/.bashrc\n' +
        '  zsh   echo \'eval "$(synthorg completion zsh)"\' >> ~/.zshrc   (after compinit)\n' +
        '  fish  synthorg completion fish > ~/.config/fish/completions/synthorg.fish\n',
    )
    .action(
      r.action((ctx: Context, [shell]: string[]) => {
        if (!(SHELLS as readonly string[]).includes(shell)) {
          throw usage(`no completion for ${shell}: one of ${SHELLS.join(', ')}`);
        }
        ctx.out(completionScript(shell as Shell, program));
        return Promise.resolve();
      }),
    );
}
