import { type AgentTool, type ToolDefinition, ToolError, toolSecurityProfile } from '@app/domain';
import { z } from 'zod';

import type { SandboxRunner } from './sandbox-runner';

const schema = z.object({
  command: z.string().min(1).max(8000).describe('A shell command, run with /bin/sh -c in the task worktree'),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(3600)
    .optional()
    .describe('Stop it after this many seconds (capped by the sandbox timeout)'),
});
type RunCommandArgs = z.infer<typeof schema>;

function definition(): ToolDefinition {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return {
    name: 'run_command',
    description:
      'Run a shell command (a build, the tests) in the task worktree inside the sandbox. Returns the exit code and the combined output.',
    parameters: { ...parameters, type: 'object', additionalProperties: false },
  };
}

/**
 * The `run_command` tool (category code_execution): runs through the sandbox chosen for its
 * category. A timeout is a tool error naming it; a non-zero exit is reported, not raised, so the
 * agent can read the failing tests.
 */
export function runCommandTool(sandboxes: SandboxRunner): AgentTool<RunCommandArgs> {
  const category = toolSecurityProfile('run_command').category;
  return {
    definition: definition(),
    schema,
    access: 'write',
    async execute(args, ctx) {
      const result = await sandboxes.run(category, args.command, ctx.root, args.timeout_seconds, ctx.signal);
      const isolation = `sandbox: ${result.isolation.join('; ')}`;
      const tail = result.truncated ? '\n[output truncated]' : '';
      if (result.timedOut) {
        throw new ToolError(
          `command timed out after ${Math.round(result.durationMs / 1000)} s; its process group was killed\n${isolation}\n${result.output}${tail}`,
        );
      }
      return `exit code ${result.exitCode ?? 'none'} after ${result.durationMs} ms\n${isolation}\n${result.output}${tail}`;
    },
  };
}
