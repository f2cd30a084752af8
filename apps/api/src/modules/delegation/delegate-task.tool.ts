import { AppError, type AgentTool, DelegationRefusedError, TASK_PRIORITIES, TASK_LIMITS, ToolError } from '@app/domain';
import { z } from 'zod';

import { toolDefinition } from '../engine';
import type { DelegationService } from './delegation.service';

const schema = z.strictObject({
  delegatee: z.string().min(1).max(200).describe('The name of the agent to hand the work to: one of your reports.'),
  title: z.string().min(1).max(TASK_LIMITS.titleMax).describe('A short title for the delegated subtask.'),
  description: z
    .string()
    .min(1)
    .max(TASK_LIMITS.descriptionMax)
    .describe('What the delegatee must do, with everything they need to know.'),
  refinement: z.string().max(TASK_LIMITS.descriptionMax).optional().describe('Extra guidance on how to do it.'),
  constraints: z.array(z.string().min(1).max(500)).max(20).optional().describe('Conditions the work must respect.'),
  priority: z.enum(TASK_PRIORITIES).optional().describe("The subtask's priority; your task's when omitted."),
});

/**
 * `delegate_task`: an agent hands part of its current task to one of its reports as a subtask, which
 * runs on its own. A refusal (authority or a loop-prevention check) comes back as the tool's error,
 * naming the check and its code, so the model can do the work itself or choose someone else.
 */
export function delegateTaskTool(delegation: DelegationService): AgentTool<z.infer<typeof schema>> {
  return {
    definition: toolDefinition(
      'delegate_task',
      'Delegate part of your current task to an agent who reports to you. It becomes a subtask assigned to ' +
        'them and runs on its own; you are told its task id.',
      schema,
    ),
    schema,
    access: 'read',
    execute: async (args, ctx) => {
      try {
        const { record, task } = await delegation.delegate({
          delegator: ctx.agentId,
          delegatee: args.delegatee,
          originalTaskId: ctx.taskId,
          title: args.title,
          description: args.description,
          ...(args.refinement !== undefined ? { refinement: args.refinement } : {}),
          ...(args.constraints !== undefined ? { constraints: args.constraints } : {}),
          ...(args.priority !== undefined ? { priority: args.priority } : {}),
        });
        return (
          `Delegated to ${record.delegateeName} as task ${task.id} (delegation ${record.id}); ` +
          `delegation chain: ${task.delegationChain.join(' → ')}.`
        );
      } catch (error) {
        if (error instanceof DelegationRefusedError) {
          const retry = error.retryAfterSec === null ? '' : `; retry after ${error.retryAfterSec} s`;
          throw new ToolError(
            `delegate_task refused by the ${error.check} check [${error.code}]: ${error.message}${retry}`,
          );
        }
        if (error instanceof AppError && error.httpStatus < 500) {
          throw new ToolError(`delegate_task: ${error.message}`);
        }
        throw error;
      }
    },
  };
}
