import type { ChatMessage } from '../providers/driver';

export interface PromptAgent {
  name: string;
  role: string;
  level: string;
  department: string;
  personality: {
    description?: string;
    traits?: readonly string[];
    communication_style?: string;
    decision_making?: string;
    verbosity?: string;
  };
}

export interface PromptTask {
  id: string;
  title: string;
  description: string;
  type: string;
  priority: string;
  deadline: string | null;
  acceptanceCriteria: readonly { description: string; met?: boolean }[];
}

/**
 * The system prompt carries only what the model cannot infer: who the agent is, how it works, and
 * how to finish. Tool definitions travel in the API's tools parameter, not here.
 */
export function buildSystemPrompt(agent: PromptAgent): string {
  const lines = [
    `You are ${agent.name}, a ${agent.level.replace('_', '-')} ${agent.role} in the ${agent.department} department.`,
  ];
  const p = agent.personality;
  if (p.description) {
    lines.push(p.description.trim());
  }
  const style = [
    p.traits && p.traits.length > 0 ? `traits: ${p.traits.join(', ')}` : null,
    p.communication_style ? `communication: ${p.communication_style}` : null,
    p.decision_making ? `decisions: ${p.decision_making}` : null,
    p.verbosity ? `verbosity: ${p.verbosity}` : null,
  ].filter((part): part is string => part !== null);
  if (style.length > 0) {
    lines.push(`Working style (${style.join('; ')}).`);
  }
  lines.push(
    'You work in your own git workspace for this task. Use the tools to inspect and change files; ' +
      'paths are relative to the workspace root. Commit your work when it is complete.',
    'When the task is done, reply with a short summary of what you did and no tool calls.',
  );
  return lines.join('\n');
}

/** The task as the first user message. */
export function buildTaskMessage(task: PromptTask): string {
  const lines = [
    `Task ${task.id}: ${task.title}`,
    `Type: ${task.type}. Priority: ${task.priority}.${task.deadline ? ` Deadline: ${task.deadline}.` : ''}`,
    '',
    task.description,
  ];
  const open = task.acceptanceCriteria.filter((c) => !c.met);
  if (open.length > 0) {
    lines.push('', 'Acceptance criteria:', ...open.map((c) => `- ${c.description}`));
  }
  return lines.join('\n');
}

export function seedMessages(agent: PromptAgent, task: PromptTask): ChatMessage[] {
  return [
    { role: 'system', content: buildSystemPrompt(agent) },
    { role: 'user', content: buildTaskMessage(task) },
  ];
}
