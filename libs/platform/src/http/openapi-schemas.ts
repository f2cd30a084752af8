import { ERROR_CATEGORIES } from '@app/domain';

/** A JSON Schema (or OpenAPI response) object as the published document carries it. */
export type SchemaObject = Record<string, unknown>;

/** A JSON reference into the document's components. */
export interface RefObject {
  $ref: string;
}

/** Reference to a schema published under `components.schemas`. */
export function schemaRef(name: string): RefObject {
  return { $ref: `#/components/schemas/${name}` };
}

/** The envelope's `error_detail`: the RFC 9457 fields plus the error code, category and retry hints. */
export const ERROR_DETAIL_SCHEMA = {
  type: 'object',
  required: ['detail', 'error_code', 'error_category', 'retryable', 'retry_after', 'instance', 'title', 'type'],
  properties: {
    detail: { type: 'string' },
    error_code: { type: 'integer', minimum: 1000, maximum: 8999 },
    error_category: { type: 'string', enum: [...ERROR_CATEGORIES] },
    retryable: { type: 'boolean' },
    retry_after: { type: ['integer', 'null'], minimum: 0 },
    instance: { type: 'string' },
    title: { type: 'string' },
    type: { type: 'string', format: 'uri' },
  },
};

const SUCCESS_FIELDS = {
  error: { type: 'null' },
  error_detail: { type: 'null' },
  success: { type: 'boolean', enum: [true] },
};

/**
 * The envelope and error schemas every operation refers to: a typed success is
 * `allOf: [ApiResponse, {data: T}]` (or PaginatedResponse), an error is ErrorResponse or ProblemDetail.
 */
export const ENVELOPE_SCHEMAS: Record<string, SchemaObject> = {
  ApiResponse: {
    type: 'object',
    description: 'Success envelope; each operation types `data`.',
    required: ['data', 'error', 'error_detail', 'success'],
    properties: { data: { description: 'The payload.' }, ...SUCCESS_FIELDS },
  },
  PaginatedResponse: {
    type: 'object',
    description: 'One page of a list; each operation types the items of `data`.',
    required: ['data', 'error', 'error_detail', 'success', 'pagination', 'degraded_sources'],
    properties: {
      data: { type: 'array', items: {} },
      ...SUCCESS_FIELDS,
      pagination: schemaRef('PaginationMeta'),
      degraded_sources: { type: 'array', items: { type: 'string' } },
    },
  },
  PaginationMeta: {
    type: 'object',
    required: ['total', 'offset', 'limit'],
    properties: { total: { type: 'integer' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
  },
  ErrorDetail: ERROR_DETAIL_SCHEMA,
  ErrorResponse: {
    type: 'object',
    description: 'Error envelope (the default error body).',
    required: ['data', 'error', 'error_detail', 'success'],
    properties: {
      data: { type: 'null' },
      error: { type: 'string' },
      error_detail: schemaRef('ErrorDetail'),
      success: { type: 'boolean', enum: [false] },
    },
  },
  ProblemDetail: {
    type: 'object',
    description: 'RFC 9457 error body, sent when the Accept header prefers application/problem+json.',
    required: [
      'type',
      'title',
      'status',
      'detail',
      'instance',
      'error_code',
      'error_category',
      'retryable',
      'retry_after',
    ],
    properties: { ...ERROR_DETAIL_SCHEMA.properties, status: { type: 'integer' } },
  },
};

const published = new Map<string, SchemaObject>();

/**
 * Publishes a schema that has no DTO class (a body built from a JSON Schema) under
 * `components.schemas` and returns a reference to it. The document generator adds every one.
 */
export function namedSchema(name: string, schema: SchemaObject): RefObject {
  const existing = published.get(name);
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
    throw new Error(`schema ${name} is published twice with different content`);
  }
  published.set(name, schema);
  return schemaRef(name);
}

/** Every schema published through `namedSchema`, by name. */
export function publishedSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries(published);
}
