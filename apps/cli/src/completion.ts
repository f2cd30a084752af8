/**
 * Shell completion scripts for bash, zsh and fish, generated from the command tree, so they always
 * name the commands and options this build has. Each script works out the command path typed so far
 * (the words that are subcommands of the path before them) and offers that path's subcommands and
 * options.
 */
import type { Command } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Node {
  /** Space-separated subcommand names from the root ('' for the root). */
  path: string;
  commands: { name: string; description: string }[];
  options: { flag: string; description: string; takesValue: boolean }[];
}

/** Every command of the tree with its subcommands and long options. */
export function completionTree(root: Command): Node[] {
  const nodes: Node[] = [];
  const visit = (command: Command, path: string) => {
    const visible = command.commands.filter((c) => c.name() !== 'help');
    nodes.push({
      path,
      commands: visible.map((c) => ({ name: c.name(), description: c.description() })),
      options: [
        ...command.options,
        // The program's options apply everywhere (but --version, which only the program answers).
        ...(path === '' ? [] : root.options.filter((o) => o.long !== '--version')),
      ]
        .filter((o) => o.long)
        .map((o) => ({ flag: o.long as string, description: o.description, takesValue: o.required || o.optional }))
        .concat([{ flag: '--help', description: 'show help', takesValue: false }]),
    });
    for (const child of visible) {
      visit(child, path ? `${path} ${child.name()}` : child.name());
    }
  };
  visit(root, '');
  return nodes;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bash(nodes: Node[]): string {
  const cases = nodes
    .map(
      (n) =>
        `    ${quote(n.path)}) echo ${quote([...n.commands.map((c) => c.name), ...n.options.map((o) => o.flag)].join(' '))} ;;`,
    )
    .join('\n');
  return `# bash completion of synthorg: eval "$(synthorg completion bash)" (e.g. in ~/.bashrc)
_synthorg_words() {
  case "$1" in
${cases}
  esac
}
_synthorg() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    if [[ " $(_synthorg_words "$path") " == *" $word "* ]]; then
      path="\${path:+$path }$word"
    fi
  done
  COMPREPLY=($(compgen -W "$(_synthorg_words "$path")" -- "$cur"))
}
complete -o default -F _synthorg synthorg
`;
}

function zsh(nodes: Node[]): string {
  const cases = nodes
    .map((n) => {
      // `name:description` (names never hold a colon; _describe splits at the first one).
      const entries = [
        ...n.commands.map((c) => `${c.name}:${c.description}`),
        ...n.options.map((o) => `${o.flag}:${o.description}`),
      ].map(quote);
      return `    ${quote(n.path)}) entries=(${entries.join(' ')}) ;;`;
    })
    .join('\n');
  return `#compdef synthorg
# zsh completion of synthorg: synthorg completion zsh > "\${fpath[1]}/_synthorg" (or eval it in ~/.zshrc)
_synthorg_entries() {
  case "$1" in
${cases}
    *) entries=() ;;
  esac
}
_synthorg() {
  local cmdpath="" word i
  local -a entries names
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    [[ "$word" == -* ]] && continue
    _synthorg_entries "$cmdpath"
    names=("\${entries[@]%%:*}")
    if (( \${names[(Ie)$word]} )); then
      cmdpath="\${cmdpath:+$cmdpath }$word"
    fi
  done
  _synthorg_entries "$cmdpath"
  _describe 'synthorg' entries
}
# Autoloaded from fpath, this file is the body of _synthorg; evaluated, it registers the function.
if [[ "\${funcstack[1]}" == _synthorg ]]; then
  _synthorg "$@"
else
  compdef _synthorg synthorg
fi
`;
}

function fish(nodes: Node[]): string {
  const children = nodes
    .filter((n) => n.commands.length > 0)
    .map(
      (n) =>
        `        case ${quote(n.path)}\n            printf '%s\\n' ${n.commands.map((c) => quote(c.name)).join(' ')}`,
    )
    .join('\n');
  const lines: string[] = [];
  for (const n of nodes) {
    // Command paths are plain words ([a-z-] and spaces), safe inside double quotes.
    const when = `-n "test (__synthorg_path) = '${n.path}'"`;
    for (const c of n.commands) {
      lines.push(`complete -c synthorg -f ${when} -a ${quote(c.name)} -d ${quote(c.description)}`);
    }
    for (const o of n.options) {
      lines.push(
        `complete -c synthorg ${when} -l ${quote(o.flag.slice(2))}${o.takesValue ? ' -r' : ''} -d ${quote(o.description)}`,
      );
    }
  }
  return `# fish completion of synthorg: synthorg completion fish > ~/.config/fish/completions/synthorg.fish
function __synthorg_children
    switch "$argv[1]"
${children}
    end
end
function __synthorg_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l p ''
    for t in $tokens
        if not string match -q -- '-*' $t; and contains -- $t (__synthorg_children "$p")
            set p (string trim -- "$p $t")
        end
    end
    echo $p
end
complete -c synthorg -f
${lines.join('\n')}
`;
}

export function completionScript(shell: Shell, root: Command): string {
  const nodes = completionTree(root);
  switch (shell) {
    case 'bash':
      return bash(nodes);
    case 'zsh':
      return zsh(nodes);
    case 'fish':
      return fish(nodes);
  }
}
