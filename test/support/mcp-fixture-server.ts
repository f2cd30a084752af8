// A Model Context Protocol server for the tests, built with the official SDK. Run directly by node
// (`node test/support/mcp-fixture-server.ts --stdio`, types stripped) it serves on stdio, the way the
// service starts a registered server; imported, it builds the same server for a Streamable HTTP
// fixture. Only erasable TypeScript here: node runs this file as it is.
import { createServer } from 'node:http';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

/** The fixture's tools: read-only echo, a destructive wipe, a crash, a probe of its own process and a priced answer. */
export function buildFixtureServer(): McpServer {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Repeats the text',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool(
    'wipe',
    {
      description: 'Wipes a target (pretend)',
      inputSchema: { target: z.string() },
      annotations: { destructiveHint: true },
    },
    ({ target }) => ({ content: [{ type: 'text', text: `wiped ${target}` }] }),
  );
  server.registerTool(
    'crash',
    { description: 'Exits the server mid-call', annotations: { readOnlyHint: true } },
    () => {
      process.exit(3);
    },
  );
  server.registerTool(
    'whoami',
    { description: 'The server process id and its environment names', annotations: { readOnlyHint: true } },
    () => ({
      content: [{ type: 'text', text: JSON.stringify({ pid: process.pid, env: Object.keys(process.env).sort() }) }],
    }),
  );
  server.registerTool(
    'priced',
    {
      description: 'Answers and reports what the answer cost (a paid lookup)',
      inputSchema: { cost: z.number() },
      annotations: { readOnlyHint: true },
    },
    // The cost convention: `_meta.cost_usd` of the result, charged to the run's task and agent.
    ({ cost }) => ({ content: [{ type: 'text', text: `priced at ${cost}` }], _meta: { cost_usd: cost } }),
  );
  return server;
}

if (process.argv.includes('--http')) {
  // Streamable HTTP on a loopback port (stateless: a fresh server per request); prints the port.
  const http = createServer((req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = buildFixtureServer();
    res.on('close', () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  http.listen(0, '127.0.0.1', () => {
    const address = http.address();
    process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}

if (process.argv.includes('--stdio')) {
  // Something for the log sink: the secret it was given must reach the logs redacted.
  process.stderr.write(`fixture starting with token ${process.env.FIXTURE_TOKEN ?? '(none)'}\n`);
  void buildFixtureServer().connect(new StdioServerTransport());
}
