import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

import { type Permission, roleHasPermission } from '@app/domain';
import type { ActorContext } from '@app/platform';

import type { AuditTrail } from '../audit';
import type { MessagePosting } from '../messages';

/** How the MCP tools reach the REST API: as the caller, through the API's own routes. */
export interface SelfApi {
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** What one request's MCP server needs. */
export interface ServiceMcpContext {
  actor: ActorContext;
  api: SelfApi;
  trail: AuditTrail;
  posting: MessagePosting;
}

const WRITE: Permission = 'write';
const limit = z.number().int().min(1).max(50).optional();

function text(value: unknown, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

/**
 * The service's own curated MCP tools, for outside agents and assistants: each answers as the REST
 * route it stands for would answer the caller (same validation, role checks and rate limits, since
 * it calls that route with the caller's token), and every call is one audit row.
 */
export function buildServiceMcpServer(ctx: ServiceMcpContext): McpServer {
  const server = new McpServer({ name: 'synthorg', version: '1.0.0' });
  const tool = <S extends z.ZodRawShape>(
    name: string,
    description: string,
    shape: S,
    readOnly: boolean,
    run: (args: z.infer<z.ZodObject<S>>) => Promise<CallToolResult>,
  ): void => {
    server.registerTool(
      name,
      { description, inputSchema: shape, annotations: { readOnlyHint: readOnly, destructiveHint: false } },
      (async (args: z.infer<z.ZodObject<S>>) => {
        if (!readOnly && !roleHasPermission(ctx.actor.role, WRITE)) {
          await audited(ctx, name, 'denied');
          return text({ error: `the ${ctx.actor.role} role may not ${name.replace('_', ' ')}`, status: 403 }, true);
        }
        const result = await run(args).catch((error: unknown) =>
          text({ error: error instanceof Error ? error.message : String(error) }, true),
        );
        await audited(ctx, name, result.isError ? 'failure' : 'success');
        return result;
      }) as never,
    );
  };
  const answer = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<CallToolResult> => {
    const response = await ctx.api.request(method, path, body);
    const payload = response.body as { data?: unknown; error?: unknown; error_detail?: unknown } | null;
    return response.status < 300
      ? text(payload?.data ?? payload)
      : text({ status: response.status, error: payload?.error, error_detail: payload?.error_detail }, true);
  };
  const query = (params: Record<string, string | number | undefined>): string => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) {
        search.set(key, String(value));
      }
    }
    const rendered = search.toString();
    return rendered === '' ? '' : `?${rendered}`;
  };

  tool(
    'list_tasks',
    'Tasks, newest first; filter by status, assignee or project',
    {
      status: z.string().max(32).optional(),
      assigned_to: z.string().max(200).optional(),
      project: z.string().max(128).optional(),
      limit,
    },
    true,
    (args) => answer('GET', `/tasks${query({ ...args, limit: args.limit ?? 20 })}`),
  );
  tool(
    'create_task',
    'Create a task in a project, optionally assigned to an agent',
    {
      title: z.string().min(1).max(256),
      description: z.string().min(1).max(8192),
      project: z.string().min(1).max(128),
      type: z.string().max(32).optional(),
      assigned_to: z.string().max(200).optional(),
    },
    false,
    (args) => answer('POST', '/tasks', { ...args, type: args.type ?? 'development', created_by: ctx.actor.username }),
  );
  tool('get_task', 'One task with its artifacts', { task_id: z.string().min(1).max(128) }, true, async (args) => {
    const task = await answer('GET', `/tasks/${encodeURIComponent(args.task_id)}`);
    if (task.isError) {
      return task;
    }
    const artifacts = await answer('GET', `/artifacts${query({ task_id: args.task_id, limit: 50 })}`);
    const first = task.content[0];
    const second = artifacts.content[0];
    return text({
      task: first.type === 'text' ? (JSON.parse(first.text) as unknown) : null,
      artifacts: !artifacts.isError && second.type === 'text' ? (JSON.parse(second.text) as unknown) : [],
    });
  });
  tool('list_pending_approvals', 'Approval items waiting for a decision', { limit }, true, (args) =>
    answer('GET', `/approvals${query({ status: 'pending', limit: args.limit ?? 20 })}`),
  );
  tool('budget_status', "The company's budget: spent, remaining and alert level", {}, true, () =>
    answer('GET', '/budget'),
  );
  tool(
    'post_message',
    'Post an announcement to a topic channel (#name)',
    { channel: z.string().min(2).max(64), content: z.string().min(1).max(4000) },
    false,
    async (args) => {
      const posted = await ctx.posting.post({
        from: 'system',
        type: 'announcement',
        channel: args.channel,
        content: args.content,
        metadata: { extra: [['posted_by', ctx.actor.username]] },
      });
      return text({ id: (posted as { id?: string }).id ?? null, channel: args.channel });
    },
  );
  return server;
}

async function audited(ctx: ServiceMcpContext, tool: string, outcome: 'success' | 'failure' | 'denied'): Promise<void> {
  await ctx.trail.record({
    actor: ctx.actor.username,
    action: 'mcp.tool_called',
    target: `mcp:${tool}`,
    outcome: outcome === 'success' ? 'success' : 'failure',
    details: { role: ctx.actor.role, outcome },
  });
}
