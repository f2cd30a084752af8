import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiNoContentResponse, ApiResponse, getSchemaPath } from '@nestjs/swagger';

import { ERROR_DETAIL_SCHEMA } from './openapi-schemas';

/** Options of a success envelope: status (default 200), array or nullable payload, description. */
export interface EnvelopeOptions {
  status?: number;
  isArray?: boolean;
  nullable?: boolean;
  description?: string;
}

/** The documented payload: a DTO class, or 'object' for a free-form JSON object. */
export type Payload = Type<unknown> | 'object';

function payloadSchema(model: Payload, options: EnvelopeOptions): Record<string, unknown> {
  const item = model === 'object' ? { type: 'object', additionalProperties: true } : { $ref: getSchemaPath(model) };
  const schema = options.isArray ? { type: 'array', items: item } : item;
  return options.nullable ? { oneOf: [schema, { type: 'null' }] } : schema;
}

function extraModels(model: Payload): Type<unknown>[] {
  return model === 'object' ? [] : [model];
}

/** Documents `ApiResponse<model>` (and sets the success status); one decorator instead of a stack. */
export function ApiEnvelope(model: Payload, options: EnvelopeOptions = {}): MethodDecorator {
  const status = options.status ?? 200;
  return applyDecorators(
    HttpCode(status),
    ApiExtraModels(...extraModels(model)),
    ApiResponse({
      status,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['data', 'error', 'error_detail', 'success'],
        properties: {
          data: payloadSchema(model, options),
          error: { type: 'null' },
          error_detail: { type: 'null' },
          success: { type: 'boolean', enum: [true] },
        },
      },
    }),
  );
}

/** Documents `PaginatedResponse<model>`. */
export function ApiPaged(model: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: 200,
      description: 'One page of results',
      schema: {
        type: 'object',
        required: ['data', 'error', 'error_detail', 'success', 'pagination', 'degraded_sources'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          error: { type: 'null' },
          error_detail: { type: 'null' },
          success: { type: 'boolean', enum: [true] },
          pagination: {
            type: 'object',
            required: ['total', 'offset', 'limit'],
            properties: { total: { type: 'integer' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
          },
          degraded_sources: { type: 'array', items: { type: 'string' } },
        },
      },
    }),
  );
}

/** Documents a 204 with no body. */
export function ApiNoContent(): MethodDecorator {
  return applyDecorators(HttpCode(204), ApiNoContentResponse({ description: 'No content' }));
}

/** The statuses a route can answer with the error envelope. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503;

/** Documents the error statuses a route can answer with the error envelope. */
export function ApiErrors(...statuses: ErrorStatus[]): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status],
        content: {
          'application/json': { schema: ERROR_ENVELOPE_SCHEMA },
          'application/problem+json': { schema: PROBLEM_SCHEMA },
        },
      }),
    ),
  );
}

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Validation error (2xxx)',
  401: 'Authentication required (1000)',
  403: 'Insufficient role (1001)',
  404: 'Not found (3xxx)',
  409: 'Conflict (4xxx)',
  429: 'Rate limited (5000), with Retry-After',
  500: 'Internal error (8000)',
  503: 'Service not wired (8001), retryable',
};

const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['data', 'error', 'error_detail', 'success'],
  properties: {
    data: { type: 'null' },
    error: { type: 'string' },
    error_detail: ERROR_DETAIL_SCHEMA,
    success: { type: 'boolean', enum: [false] },
  },
};

const PROBLEM_SCHEMA = {
  type: 'object',
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
  properties: {
    ...ERROR_DETAIL_SCHEMA.properties,
    status: { type: 'integer' },
  },
};
