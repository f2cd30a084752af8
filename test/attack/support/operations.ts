import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A JSON schema as the published document carries it (OpenAPI 3.1 dialect). */
export type JsonSchema = Record<string, unknown>;

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationParam {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

/** One documented operation, its `$ref`s resolved. */
export interface Operation {
  method: HttpMethod;
  /** The templated path, e.g. `/api/v1/tasks/{task_id}`. */
  path: string;
  /** `GET /api/v1/tasks/{task_id}`: how tables and reports name the operation. */
  key: string;
  params: OperationParam[];
  body: { schema: JsonSchema; required: boolean } | null;
  /** The statuses the document lists for the operation. */
  statuses: string[];
}

/** The committed document: the suites attack what is published, so a new route is covered on the day it lands. */
export const OPENAPI_FILE = join(__dirname, '..', '..', '..', 'openapi.json');

interface RawDocument {
  paths: Record<string, Partial<Record<string, unknown>>>;
}

function readDocument(): RawDocument {
  return JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as RawDocument;
}

/** `GET /api/v1/tasks` for every operation, read synchronously (jest needs the list to name its tests). */
export function operationKeys(): string[] {
  const keys: string[] = [];
  for (const [path, item] of Object.entries(readDocument().paths)) {
    for (const method of HTTP_METHODS) {
      if (item[method]) {
        keys.push(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  return keys;
}

interface RawOperation {
  parameters?: Array<{ name: string; in: OperationParam['in']; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

/**
 * The document with every internal `$ref` replaced by what it points at (shared objects stay
 * shared; a reference cycle is left as the `$ref` it is, which the generators read as "any value").
 */
function dereferenced(doc: unknown): unknown {
  const resolving = new Set<string>();
  const done = new Map<string, unknown>();
  const pointer = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], doc);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      return node.map(walk);
    }
    if (!node || typeof node !== 'object') {
      return node;
    }
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (!done.has(ref)) {
        if (resolving.has(ref)) {
          return node;
        }
        resolving.add(ref);
        done.set(ref, walk(pointer(ref)));
        resolving.delete(ref);
      }
      return done.get(ref);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(doc);
}

/** Every operation of the document, its `$ref`s resolved. */
export function loadOperations(): Map<string, Operation> {
  const doc = dereferenced(readDocument()) as { paths: Record<string, Partial<Record<string, RawOperation>>> };
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const raw = item[method];
      if (!raw) {
        continue;
      }
      const key = `${method.toUpperCase()} ${path}`;
      const json = raw.requestBody?.content?.['application/json']?.schema;
      operations.set(key, {
        method,
        path,
        key,
        params: (raw.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          schema: p.schema ?? { type: 'string' },
        })),
        body: json ? { schema: json, required: raw.requestBody?.required === true } : null,
        statuses: Object.keys(raw.responses ?? {}),
      });
    }
  }
  return operations;
}

/** The names of the path parameters in template order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/** The path with each `{param}` replaced by the raw (already encoded or deliberately malformed) value given. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x');
}
