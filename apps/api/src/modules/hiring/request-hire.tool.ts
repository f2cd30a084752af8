import { type AgentTool, AppError, HIRING_LIMITS as L, SENIORITY_LEVELS, ToolError } from '@app/domain';
import { z } from 'zod';

import { toolDefinition } from '../engine';
import type { HiringService } from './hiring.service';

const schema = z.strictObject({
  department: z.string().min(1).max(L.department).describe("The department to hire into: one of the company's."),
  role: z.string().min(1).max(L.role).describe('The role of the new agent, e.g. "Backend Developer".'),
  level: z.enum(SENIORITY_LEVELS).describe('The seniority of the new agent.'),
  required_skills: z.array(z.string().min(1).max(L.skill)).max(L.skills).default([]).describe('Skills it needs.'),
  reason: z.string().min(1).max(L.reason).describe('Why the company needs this hire.'),
  budget_limit_monthly: z
    .number()
    .min(0)
    .max(L.budgetLimitMonthly)
    .optional()
    .describe("The new agent's monthly limit."),
});

/**
 * `request_hire`: an agent asks for a new colleague. The security layer classifies it as `org:hire`
 * (a person approves the call under the semi, supervised and locked autonomy levels); once it runs,
 * it files a hiring request that waits for a person's decision in the approvals queue, whatever the
 * call's own approval: the tool asks, a person decides whom to hire and at what cost.
 */
export function requestHireTool(hiring: HiringService): AgentTool<z.infer<typeof schema>> {
  return {
    definition: toolDefinition(
      'request_hire',
      'Ask for a new agent to be hired. Files a hiring request with candidates; a person decides it.',
      schema,
    ),
    schema,
    access: 'read',
    execute: async (args, ctx) => {
      try {
        const request = await hiring.file({ kind: 'agent', agentId: ctx.agentId, name: ctx.agentName }, args);
        const first = request.candidates[0];
        return (
          `Filed hiring request ${request.id} (${request.status}) for a ${request.level} ${request.role} in ` +
          `${request.department}; first candidate ${first.name}, about ${first.estimated_monthly_cost} a month. ` +
          `Approval item ${request.approval_id ?? 'none'} decides it.`
        );
      } catch (error) {
        if (error instanceof AppError && error.httpStatus < 500) {
          throw new ToolError(`request_hire refused [${error.code}]: ${error.message}`);
        }
        throw error;
      }
    },
  };
}
