import type { Stats } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { createContext, Script } from 'node:vm';

import { type AgentTool, type ToolAccess, type ToolContext, type ToolDefinition, ToolError } from '@app/domain';
import { z } from 'zod';

import { resolveInside } from './path-guard';

const KIB = 1024;
// git's own heuristic: a NUL byte in the first 8000 bytes marks a file as binary.
const BINARY_SNIFF_BYTES = 8000;
const MAX_SEARCH_LINE_CHARS = 240;

export interface BuiltinToolOptions {
  maxListEntries?: number;
  maxReadBytes?: number;
  maxWriteBytes?: number;
  /** Files larger than this are skipped by search_files. */
  maxSearchFileBytes?: number;
  /** Files visited by one search_files call at most. */
  maxSearchFiles?: number;
  /** Total CPU time one regex search may spend matching. */
  regexBudgetMs?: number;
}

type Limits = Required<BuiltinToolOptions>;

const DEFAULT_LIMITS: Limits = {
  maxListEntries: 500,
  maxReadBytes: 256 * KIB,
  maxWriteBytes: 512 * KIB,
  maxSearchFileBytes: 1024 * KIB,
  maxSearchFiles: 20_000,
  regexBudgetMs: 2_000,
};

export const BUILTIN_TOOL_NAMES = ['list_files', 'read_file', 'write_file', 'search_files', 'commit_changes'] as const;

/**
 * The JSON Schema an LLM sees, generated from the zod schema that validates the call, so the two
 * cannot drift. Input mode keeps defaulted fields optional; `$schema` is dropped because some
 * providers reject unknown top-level keywords in tool parameters.
 */
export function toolDefinition(name: string, description: string, schema: z.ZodType): ToolDefinition {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { name, description, parameters: { ...parameters, type: 'object', additionalProperties: false } };
}

function defineTool<A>(
  name: string,
  access: ToolAccess,
  description: string,
  schema: z.ZodType<A>,
  execute: (args: A, ctx: ToolContext) => Promise<string>,
): AgentTool<A> {
  return { definition: toolDefinition(name, description, schema), schema, access, execute };
}

export function builtinTools(options: BuiltinToolOptions = {}): AgentTool[] {
  const limits: Limits = { ...DEFAULT_LIMITS, ...options };
  return [listFilesTool(limits), readFileTool(limits), writeFileTool(limits), searchFilesTool(limits), commitTool()];
}

function listFilesTool(limits: Limits): AgentTool {
  const schema = z.strictObject({
    path: z.string().max(4096).default('.').describe('Directory relative to the workspace root; default the root.'),
    recursive: z.boolean().default(false).describe('List subdirectories too.'),
  });
  return defineTool(
    'list_files',
    'read',
    `List files in a workspace directory (directories end with "/"; at most ${limits.maxListEntries} entries).`,
    schema,
    async (args, ctx) => {
      const { realRoot, target } = await locate(ctx, args.path);
      await expectKind(target, 'directory', args.path);
      const lines: string[] = [];
      for await (const entry of walk(realRoot, target, args.recursive, ctx.signal)) {
        if (lines.length === limits.maxListEntries) {
          lines.push(`[listing truncated at ${limits.maxListEntries} entries; list a subdirectory to see more]`);
          break;
        }
        lines.push(entry.isDirectory ? `${entry.rel}/` : entry.rel);
      }
      return lines.length === 0 ? '(empty directory)' : lines.join('\n');
    },
  );
}

function readFileTool(limits: Limits): AgentTool {
  const schema = z.strictObject({
    path: z.string().min(1).max(4096).describe('File path relative to the workspace root.'),
    offset_line: z.number().int().min(1).optional().describe('First line to return (1-based).'),
    max_lines: z.number().int().min(1).optional().describe('Number of lines to return.'),
  });
  return defineTool(
    'read_file',
    'read',
    `Read a UTF-8 text file from the workspace (at most ${limits.maxReadBytes / KIB} KiB), optionally a line range.`,
    schema,
    async (args, ctx) => {
      const { target } = await locate(ctx, args.path);
      const size = await expectKind(target, 'file', args.path);
      if (size > limits.maxReadBytes) {
        throw new ToolError(`${args.path} is ${size} bytes; read_file reads at most ${limits.maxReadBytes} bytes`);
      }
      const data = await fsCall(() => readFile(target), 'read', args.path);
      if (isBinary(data)) {
        throw new ToolError(`${args.path} is a binary file`);
      }
      const text = data.toString('utf8');
      if (args.offset_line === undefined && args.max_lines === undefined) {
        return text;
      }
      const lines = text.split(/(?<=\n)/);
      const first = args.offset_line ?? 1;
      if (first > Math.max(lines.length, 1)) {
        throw new ToolError(`offset_line ${first} is past the end of ${args.path} (${lines.length} lines)`);
      }
      return lines.slice(first - 1, args.max_lines === undefined ? undefined : first - 1 + args.max_lines).join('');
    },
  );
}

function writeFileTool(limits: Limits): AgentTool {
  const schema = z.strictObject({
    path: z.string().min(1).max(4096).describe('File path relative to the workspace root.'),
    content: z.string().max(limits.maxWriteBytes).describe('Text to write (UTF-8).'),
    mode: z.enum(['overwrite', 'append']).default('overwrite'),
  });
  return defineTool(
    'write_file',
    'write',
    `Create or replace (or append to) a text file in the workspace, creating parent directories; at most ${limits.maxWriteBytes / KIB} KiB.`,
    schema,
    async (args, ctx) => {
      const bytes = Buffer.byteLength(args.content, 'utf8');
      if (bytes > limits.maxWriteBytes) {
        throw new ToolError(`content is ${bytes} bytes; write_file writes at most ${limits.maxWriteBytes} bytes`);
      }
      const { realRoot, target } = await locate(ctx, args.path);
      if (target === realRoot || (await statOrNull(target))?.isDirectory()) {
        throw new ToolError(`${args.path} is a directory`);
      }
      await fsCall(() => mkdir(dirname(target), { recursive: true }), 'create the parent of', args.path);
      const write = args.mode === 'append' ? appendFile : writeFile;
      await fsCall(() => write(target, args.content, 'utf8'), 'write', args.path);
      return `wrote ${bytes} bytes to ${display(realRoot, target)}`;
    },
  );
}

function searchFilesTool(limits: Limits): AgentTool {
  const schema = z.strictObject({
    pattern: z.string().min(1).max(1000).describe('Text to find; a JavaScript regular expression when regex is true.'),
    regex: z.boolean().default(false),
    path: z.string().max(4096).default('.').describe('File or directory to search; default the whole workspace.'),
    max_results: z.number().int().min(1).max(200).default(50),
  });
  return defineTool(
    'search_files',
    'read',
    'Search text files in the workspace; returns matching lines as "path:line: text".',
    schema,
    async (args, ctx) => {
      const matcher = args.regex ? regexMatcher(args.pattern, limits.regexBudgetMs) : literalMatcher(args.pattern);
      const { realRoot, target } = await locate(ctx, args.path);
      const results: string[] = [];
      for await (const file of searchableFiles(realRoot, target, limits, ctx.signal)) {
        const lines = file.text.split('\n');
        for (const index of matcher(lines)) {
          if (results.length === args.max_results) {
            return `${results.join('\n')}\n[stopped at ${args.max_results} results]`;
          }
          results.push(`${file.rel}:${index + 1}: ${clip(lines[index].replace(/\r$/, ''))}`);
        }
      }
      return results.length === 0 ? 'no matches' : results.join('\n');
    },
  );
}

function commitTool(): AgentTool {
  const schema = z.strictObject({
    message: z.string().trim().min(1).max(500).describe('Commit message describing the change.'),
  });
  return defineTool(
    'commit_changes',
    'write',
    'Commit every change in the workspace with a message; returns the commit id or "nothing to commit".',
    schema,
    async (args, ctx) => {
      if (!ctx.commit) {
        throw new ToolError('committing is not available for this task');
      }
      const outcome = await ctx.commit(args.message);
      return outcome.committed && outcome.sha !== null ? outcome.sha : 'nothing to commit';
    },
  );
}

type LineMatcher = (lines: readonly string[]) => number[];

function literalMatcher(pattern: string): LineMatcher {
  return (lines) => lines.flatMap((line, index) => (line.includes(pattern) ? [index] : []));
}

// An agent-written pattern such as (a+)+$ can backtrack for minutes, and a regex cannot be interrupted
// from JavaScript. Running the loop as a vm script lets V8's watchdog stop it; vm is used here only for
// its timeout, not as a sandbox: the script is fixed and the pattern stays data.
const MATCH_SCRIPT = new Script(
  'hits = []; for (let i = 0; i < lines.length; i++) { if (re.test(lines[i])) hits.push(i); }',
);

function regexMatcher(pattern: string, budgetMs: number): LineMatcher {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (error) {
    throw new ToolError(`invalid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
  const context = createContext({ re, lines: [] as readonly string[], hits: [] as number[] });
  const deadline = performance.now() + budgetMs;
  return (lines) => {
    context.lines = lines;
    try {
      MATCH_SCRIPT.runInContext(context, { timeout: Math.max(1, Math.ceil(deadline - performance.now())) });
    } catch {
      throw new ToolError('the regular expression took too long to match; simplify the pattern');
    }
    return [...(context.hits as number[])];
  };
}

interface WalkEntry {
  abs: string;
  rel: string;
  isDirectory: boolean;
  isFile: boolean;
}

/** Depth-first, sorted, never into `.git` and never through symlinked directories. */
async function* walk(
  realRoot: string,
  dir: string,
  recursive: boolean,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry> {
  signal?.throwIfAborted();
  const entries = await fsCall(() => readdir(dir, { withFileTypes: true }), 'list', display(realRoot, dir));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of entries) {
    if (dirent.name.toLowerCase() === '.git') {
      continue;
    }
    const abs = join(dir, dirent.name);
    yield { abs, rel: display(realRoot, abs), isDirectory: dirent.isDirectory(), isFile: dirent.isFile() };
    if (recursive && dirent.isDirectory()) {
      yield* walk(realRoot, abs, true, signal);
    }
  }
}

async function* searchableFiles(
  realRoot: string,
  target: string,
  limits: Limits,
  signal?: AbortSignal,
): AsyncGenerator<{ rel: string; text: string }> {
  const stats = await fsCall(() => stat(target), 'search', display(realRoot, target));
  const entries: AsyncIterable<WalkEntry> | WalkEntry[] = stats.isDirectory()
    ? walk(realRoot, target, true, signal)
    : [{ abs: target, rel: display(realRoot, target), isDirectory: false, isFile: stats.isFile() }];
  let visited = 0;
  for await (const entry of entries) {
    if (!entry.isFile) {
      continue;
    }
    if (++visited > limits.maxSearchFiles) {
      return;
    }
    const size = (await statOrNull(entry.abs))?.size ?? Infinity;
    if (size > limits.maxSearchFileBytes) {
      continue;
    }
    const data = await readFile(entry.abs).catch(() => null);
    if (data !== null && !isBinary(data)) {
      yield { rel: entry.rel, text: data.toString('utf8') };
    }
  }
}

async function locate(ctx: ToolContext, path: string): Promise<{ realRoot: string; target: string }> {
  const target = await resolveInside(ctx.root, path);
  return { realRoot: await realpath(ctx.root), target };
}

/** Checks the path is a file or directory; returns its size. */
async function expectKind(target: string, kind: 'file' | 'directory', path: string): Promise<number> {
  const stats = await statOrNull(target);
  if (stats === null) {
    throw new ToolError(`${path} does not exist`);
  }
  if (kind === 'file' ? !stats.isFile() : !stats.isDirectory()) {
    throw new ToolError(`${path} is not a ${kind}`);
  }
  return stats.size;
}

function statOrNull(path: string): Promise<Stats | null> {
  return stat(path).catch(() => null);
}

// File-system errors carry absolute host paths in their message; the agent gets the code only.
async function fsCall<T>(operation: () => Promise<T>, action: string, path: string): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ToolError(`could not ${action} ${path}: ${code}`);
  }
}

function isBinary(data: Buffer): boolean {
  return data.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

function display(realRoot: string, abs: string): string {
  const rel = relative(realRoot, abs);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

function clip(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > MAX_SEARCH_LINE_CHARS ? `${trimmed.slice(0, MAX_SEARCH_LINE_CHARS)}…` : trimmed;
}
