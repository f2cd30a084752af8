// The overhead of a tool server's tool over a built-in one (part of `npm run bench`; alone:
// BENCH_ONLY=mcp): the same echo, called through the engine's ToolInvoker as a run calls it, once as
// an in-process tool and once on the test fixture MCP server over stdio (a child process) and over
// Streamable HTTP (loopback). Prints p50 and p99 per call and the overhead over the built-in's.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

import pino from 'pino';

// The bench drives the engine and the tool-server link without the Nest application.

import { ToolInvoker } from '../../apps/api/src/modules/engine/tools/tool-invoker';

import { GuardedFetcher } from '../../apps/api/src/modules/providers/discovery/guarded-fetch';

import { ServerLink } from '../../apps/api/src/modules/tool-servers/server-link';

import type { ToolServerRecord } from '../../apps/api/src/modules/tool-servers/tool-server-record';

import type { AgentTool, ToolContext } from '../../libs/domain/src';

import { median } from './harness';

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FIXTURE = resolve(__dirname, '..', '..', '..', 'test', 'support', 'mcp-fixture-server.ts');
const CTX: ToolContext = { root: '/tmp', taskId: 'bench', agentId: 'bench', agentName: 'bench' };
const ANY_OBJECT = {
  safeParse: (value: unknown) => ({ success: true as const, data: value as Record<string, unknown> }),
};

function tool(name: string, execute: (args: Record<string, unknown>) => Promise<string>): AgentTool {
  return {
    definition: { name, description: name, parameters: { type: 'object' } },
    schema: ANY_OBJECT,
    access: 'read',
    execute: (args) => execute(args as Record<string, unknown>),
  };
}

function record(overrides: Partial<ToolServerRecord>): ToolServerRecord {
  const now = new Date();
  return {
    name: 'bench',
    transport: 'stdio',
    command: null,
    args: [],
    envNames: [],
    url: null,
    authHeaderName: null,
    secrets: { env: {} },
    allowlist: { departments: [], agents: [] },
    toolActions: {},
    tools: [],
    toolsListedAt: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** p50 and p99 (ms) of one invocation of `name`, medians over the rounds. */
async function measure(invoker: ToolInvoker, name: string): Promise<[number, number]> {
  const p50: number[] = [];
  const p99: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const times: number[] = [];
    for (let i = 0; i < CALLS; i += 1) {
      const started = performance.now();
      const result = await invoker.invoke({ name, arguments: { text: 'ping' } }, CTX);
      times.push(performance.now() - started);
      if (result.isError || result.content !== 'echo: ping') {
        throw new Error(`${name} answered ${result.content}`);
      }
    }
    times.sort((a, b) => a - b);
    p50.push(percentile(times, 50));
    p99.push(percentile(times, 99));
  }
  return [median(p50), median(p99)];
}

/** Never idle during a bench: the server stays up between samples. */
const LINK_OPTIONS = { idleMs: () => 3_600_000 };

function httpFixture(): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--no-warnings', FIXTURE, '--http'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child.once('error', fail);
    child.stdout.once('data', (chunk: Buffer) => done({ child, port: Number(chunk.toString().trim()) }));
  });
}

export async function runMcpBench(): Promise<void> {
  const log = pino({ level: 'silent' });
  const fetcher = new GuardedFetcher({ blockPrivateIps: false, allowlist: new Set() }, { followRedirects: false });
  const http = await httpFixture();
  const stdio = new ServerLink(
    record({ command: process.execPath, args: ['--no-warnings', FIXTURE, '--stdio'] }),
    fetcher,
    log,
    LINK_OPTIONS,
  );
  // The same server started from this process instead of the spawn helper: the relay's own cost.
  const direct = new ServerLink(
    record({ command: process.execPath, args: ['--no-warnings', FIXTURE, '--stdio'] }),
    fetcher,
    log,
    { ...LINK_OPTIONS, helper: null },
  );
  const remote = new ServerLink(
    record({ transport: 'http', url: `http://127.0.0.1:${http.port}/mcp` }),
    fetcher,
    log,
    LINK_OPTIONS,
  );
  const viaLink = (link: ServerLink) => async (args: Record<string, unknown>) =>
    (await link.call('echo', args, 10_000)).text;
  const invoker = new ToolInvoker({
    tools: [
      tool('echo', (args) => Promise.resolve(`echo: ${String(args.text)}`)),
      tool('bench__echo_stdio', viaLink(stdio)),
      tool('bench__echo_direct', viaLink(direct)),
      tool('bench__echo_http', viaLink(remote)),
    ],
  });
  try {
    const builtin = await measure(invoker, 'echo');
    const line = (label: string, [p50, p99]: [number, number]): string =>
      `${label}: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms` +
      (label === 'built-in'
        ? ''
        : ` (overhead p50 +${(p50 - builtin[0]).toFixed(3)} ms, p99 +${(p99 - builtin[1]).toFixed(3)} ms)`);
    process.stdout.write(`mcp tool call, ${CALLS} calls x ${ROUNDS} rounds\n  ${line('built-in', builtin)}\n`);
    process.stdout.write(`  ${line('stdio server', await measure(invoker, 'bench__echo_stdio'))}\n`);
    process.stdout.write(
      `  ${line('stdio server started without the helper', await measure(invoker, 'bench__echo_direct'))}\n`,
    );
    process.stdout.write(`  ${line('streamable http server', await measure(invoker, 'bench__echo_http'))}\n`);
  } finally {
    await stdio.stop();
    await direct.stop();
    await remote.stop();
    http.child.kill('SIGKILL');
    await fetcher.close();
  }
}
