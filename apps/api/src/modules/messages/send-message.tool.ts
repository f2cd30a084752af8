import { AppError, type AgentTool, MESSAGE_LIMITS, MESSAGE_PRIORITIES, ToolError } from '@app/domain';
import { z } from 'zod';

import type { AgentRoster } from '../agents';
import { toolDefinition } from '../engine';
import type { MessagePosting } from './message-posting.facade';

/** What agents say during their work; meeting, approval and HR messages come from their own modules. */
const AGENT_MESSAGE_TYPES = [
  'task_update',
  'status_report',
  'question',
  'announcement',
  'review_request',
  'delegation',
  'escalation',
] as const;

const schema = z
  .strictObject({
    channel: z
      .string()
      .max(MESSAGE_LIMITS.maxChannelNameChars)
      .optional()
      .describe('A topic channel such as #engineering; omit when writing to one agent.'),
    to: z
      .string()
      .max(MESSAGE_LIMITS.maxRecipientChars)
      .optional()
      .describe('An agent name: a direct message to that agent; omit when posting to a channel.'),
    type: z.enum(AGENT_MESSAGE_TYPES).default('status_report').describe('What the message is about.'),
    priority: z.enum(MESSAGE_PRIORITIES).default('normal'),
    content: z.string().min(1).max(MESSAGE_LIMITS.maxContentChars).describe('The message text.'),
  })
  .refine((args) => (args.channel === undefined) !== (args.to === undefined), {
    message: 'give exactly one of channel and to',
  });

/**
 * `send_message`: an agent posts a task update, a status report, a question, a review request, a
 * delegation or an escalation to a channel or directly to another agent. It touches no file.
 */
export function sendMessageTool(posting: MessagePosting, roster: AgentRoster): AgentTool<z.infer<typeof schema>> {
  return {
    definition: toolDefinition(
      'send_message',
      'Post a message to a channel (#all-hands, #engineering, #product, #design, #incidents, #code-review, ' +
        '#watercooler) or directly to another agent by name.',
      schema,
    ),
    schema,
    access: 'read',
    execute: async (args, ctx) => {
      try {
        const to = args.to === undefined ? undefined : await recipient(roster, args.to, ctx.agentName);
        const message = await posting.post({
          from: ctx.agentName,
          type: args.type,
          priority: args.priority,
          content: args.content,
          ...(to === undefined ? { channel: args.channel } : { toAgent: to }),
          metadata: { taskId: ctx.taskId },
        });
        return `Message ${message.id} posted to ${message.channel}.`;
      } catch (error) {
        if (error instanceof AppError && error.httpStatus < 500) {
          throw new ToolError(`send_message: ${error.message}`);
        }
        throw error;
      }
    },
  };
}

async function recipient(roster: AgentRoster, ref: string, sender: string): Promise<string> {
  const agent = await roster.findByRef(ref);
  if (!agent) {
    throw new ToolError(`send_message: no agent "${ref}" on the roster`);
  }
  if (agent.name === sender) {
    throw new ToolError('send_message: an agent cannot message itself');
  }
  return agent.name;
}
