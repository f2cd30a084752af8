/**
 * The `synthorg` command tree: global options, the command groups, the help texts and how a
 * command's action becomes an exit code.
 */
import { Command, CommanderError } from 'commander';

import { Context, type GlobalOptions, type Io } from './context';
import { CliError, errorLine, ExitCode, toCliError } from './errors';

import { registerAccount } from './commands/account';
import { registerAgents } from './commands/agents';
import { registerApprovals } from './commands/approvals';
import { registerAudit } from './commands/audit';
import { registerBackup } from './commands/backup';
import { registerBudget } from './commands/budget';
import { registerCompletion } from './commands/completion';
import { registerEvents } from './commands/events';
import { registerHiring } from './commands/hiring';
import { registerMemory } from './commands/memory';
import { registerProviders } from './commands/providers';
import { registerSettings } from './commands/settings';
import { registerSetup } from './commands/setup';
import { registerTasks } from './commands/tasks';
import { registerUsers } from './commands/users';

/** Options of one command, as commander parsed them. */
export type Flags = Record<string, string | boolean | string[] | undefined>;

/** A command's implementation: the context, its positional arguments, its own options. */
export type Handler = (ctx: Context, args: string[], flags: Flags, command: Command) => Promise<void>;

/** What registering a command group needs: how to wrap an action. */
export interface Registry {
  action(handler: Handler): (...params: unknown[]) => Promise<void>;
}

const FOOTER = `
Environment:
  SYNTHORG_URL       server URL (overrides the profile's)
  SYNTHORG_TOKEN     session or system token (overrides the profile's; \`npm run system-token\`)
  SYNTHORG_PROFILE   profile used without --profile
  XDG_CONFIG_HOME    where synthorg/config.json lives (default ~/.config)
  NO_COLOR           no colour in tables

Exit codes:
  0 ok, 1 API error (message and 4-digit code on stderr), 2 usage error,
  3 not signed in or forbidden, 4 not found, 5 conflict
`;

/** The program, with its actions writing to `io` and reporting their exit code to `exit`. */
export function buildProgram(io: Io, exit: (code: number) => void, version = 'unknown'): Command {
  const program = new Command('synthorg');
  let ctx: Context | null = null;
  const registry: Registry = {
    action(handler) {
      return async (...params: unknown[]) => {
        const command = params[params.length - 1] as Command;
        const flags = params[params.length - 2] as Flags;
        const args = params.slice(0, -2).flatMap((a) => (Array.isArray(a) ? (a as string[]) : [a as string]));
        try {
          ctx = new Context(command.optsWithGlobals<GlobalOptions>(), io);
          await handler(
            ctx,
            args.filter((a) => a !== undefined),
            flags,
            command,
          );
          exit(ExitCode.Ok);
        } catch (error) {
          let url: string | undefined;
          try {
            url = ctx?.profile.url;
          } catch {
            url = undefined;
          }
          const failure = toCliError(error, url);
          io.stderr.write(errorLine(failure, ctx?.secrets ?? []));
          exit(failure.exitCode);
        }
      };
    },
  };
  program
    .description('Command line of SynthOrg: sign in, watch, decide and administer through the API.')
    .version(version, '-V, --version', 'print the version of the command line')
    .option('--profile <name>', 'use this profile of the config file (default: the last signed in)')
    .option('--json', "print the API's data as one JSON document")
    .option('-q, --quiet', 'print only ids')
    .option('--no-color', 'no colour (also NO_COLOR, or output that is not a terminal)')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help of a command')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', FOOTER)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();
  registerAccount(program, registry);
  registerSetup(program, registry);
  registerTasks(program, registry);
  registerApprovals(program, registry);
  registerAgents(program, registry);
  registerHiring(program, registry);
  registerMemory(program, registry);
  registerBudget(program, registry);
  registerProviders(program, registry);
  registerSettings(program, registry);
  registerUsers(program, registry);
  registerBackup(program, registry);
  registerAudit(program, registry);
  registerEvents(program, registry);
  registerCompletion(program, registry);
  return program;
}

/** Every command of the tree, depth first. */
export function allCommands(root: Command): Command[] {
  return [root, ...root.commands.flatMap((c) => allCommands(c))];
}

/** Runs the command line on `argv` (without node and the script); resolves to the exit code. */
export async function runCli(argv: string[], io: Io, version?: string): Promise<number> {
  let code: number = ExitCode.Ok;
  const program = buildProgram(io, (c) => (code = c), version);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return ExitCode.Usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    const failure = error instanceof CliError ? error : toCliError(error);
    io.stderr.write(errorLine(failure));
    return failure.exitCode;
  }
  return code;
}
