import type { OpenAPIObject } from '@nestjs/swagger';

import { ENVELOPE_SCHEMAS, errorResponse, errorResponseNames, publishedSchemas } from '@app/platform';

type Components = NonNullable<OpenAPIObject['components']>;
type Responses = NonNullable<Components['responses']>;
type Parameters = NonNullable<Components['parameters']>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
/** The paging query parameters every list shares, by their name in components.parameters. */
const PAGE_PARAMETERS: Record<string, string> = { offset: 'PageOffset', limit: 'PageLimit' };

interface OperationLike {
  parameters?: unknown[];
  responses?: Record<string, unknown>;
}

/**
 * Publishes what operations share once, in `components`: the envelope and error schemas, the schemas
 * without a DTO class, one response per error status and the paging parameters. Each operation's copy,
 * which the decorators write out in full, becomes a reference (a copy that differs stays inline).
 */
export function addSharedComponents(document: OpenAPIObject): void {
  const components = (document.components ??= {});
  components.schemas = { ...ENVELOPE_SCHEMAS, ...publishedSchemas(), ...components.schemas };
  const operations = operationsOf(document);
  shareErrorResponses(components, operations);
  sharePageParameters(components, operations);
}

function operationsOf(document: OpenAPIObject): OperationLike[] {
  return Object.values(document.paths).flatMap((item) =>
    HTTP_METHODS.map((method) => item[method] as OperationLike | undefined).filter((op) => op !== undefined),
  );
}

function shareErrorResponses(components: Components, operations: OperationLike[]): void {
  const shared = errorResponseNames().map(([status, name]) => ({
    status: String(status),
    name,
    text: canonical(errorResponse(status)),
  }));
  components.responses = {
    ...components.responses,
    ...Object.fromEntries(shared.map(({ name, text }) => [name, JSON.parse(text) as Responses[string]])),
  };
  for (const { responses } of operations) {
    for (const { status, name, text } of shared) {
      if (responses?.[status] !== undefined && canonical(responses[status]) === text) {
        responses[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
}

/** The most common form of each paging parameter becomes the shared one. */
function sharePageParameters(components: Components, operations: OperationLike[]): void {
  const parameters: Parameters = { ...components.parameters };
  for (const [name, componentName] of Object.entries(PAGE_PARAMETERS)) {
    const counts = new Map<string, number>();
    for (const parameter of operations.flatMap((op) => op.parameters ?? [])) {
      if (isQueryParameter(parameter, name)) {
        const text = canonical(parameter);
        counts.set(text, (counts.get(text) ?? 0) + 1);
      }
    }
    const [common] = [...counts.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
    if (common === undefined) {
      continue;
    }
    parameters[componentName] = JSON.parse(common[0]) as Parameters[string];
    for (const operation of operations.filter((op) => op.parameters !== undefined)) {
      operation.parameters = (operation.parameters ?? []).map((parameter) =>
        isQueryParameter(parameter, name) && canonical(parameter) === common[0]
          ? { $ref: `#/components/parameters/${componentName}` }
          : parameter,
      );
    }
  }
  components.parameters = parameters;
}

function isQueryParameter(parameter: unknown, name: string): boolean {
  const candidate = parameter as { in?: unknown; name?: unknown } | null;
  return candidate?.in === 'query' && candidate.name === name;
}

/** JSON text with object keys sorted, so that equal objects compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node !== null && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => a.localeCompare(b)))
      : node,
  );
}
