import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiNoContentResponse, ApiResponse, getSchemaPath } from '@nestjs/swagger';

import { ErrorCode } from '@app/domain';

import { schemaRef, type SchemaObject } from './openapi-schemas';

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

/** An envelope from components.schemas with its `data` typed for one operation. */
function typedEnvelope(envelope: 'ApiResponse' | 'PaginatedResponse', data: Record<string, unknown>): SchemaObject {
  return { allOf: [schemaRef(envelope), { properties: { data } }] };
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
      schema: typedEnvelope('ApiResponse', payloadSchema(model, options)),
    }),
  );
}

/**
 * Documents `PaginatedResponse<model>`; `extras` names a DTO of fields the page carries beside
 * `data` and `pagination` (summaries over every matching item, say), merged into the schema.
 */
export function ApiPaged(model: Type<unknown>, extras?: Type<unknown>): MethodDecorator {
  const page = typedEnvelope('PaginatedResponse', { type: 'array', items: { $ref: getSchemaPath(model) } });
  return applyDecorators(
    ApiExtraModels(model, ...(extras ? [extras] : [])),
    ApiResponse({
      status: 200,
      description: 'One page of results',
      schema: extras ? { allOf: [...(page.allOf as SchemaObject[]), { $ref: getSchemaPath(extras) }] } : page,
    }),
  );
}

/** Documents a 204 with no body. */
export function ApiNoContent(): MethodDecorator {
  return applyDecorators(HttpCode(204), ApiNoContentResponse({ description: 'No content' }));
}

/** The statuses a route can answer with the error envelope. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 416 | 422 | 429 | 500 | 503 | 507;

/** Documents the error statuses a route can answer with the error envelope. */
export function ApiErrors(...statuses: ErrorStatus[]): MethodDecorator {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, ...errorResponse(status) })));
}

/** Name in components.responses and description of each error status. */
const ERROR_RESPONSE_NAMES: Record<ErrorStatus, readonly [name: string, description: string]> = {
  400: ['BadRequest', 'Validation error (2xxx)'],
  401: ['Unauthorized', 'Authentication required (1000)'],
  403: ['Forbidden', 'Insufficient role (1001)'],
  404: ['NotFound', 'Not found (3xxx)'],
  409: ['Conflict', 'Conflict (4xxx)'],
  413: ['PayloadTooLarge', 'Request body over the size limit'],
  416: ['RangeNotSatisfiable', `Range cannot be served (${ErrorCode.ArtifactRangeInvalid})`],
  422: ['UnprocessableEntity', `Idempotency-Key reused with another request (${ErrorCode.IdempotencyKeyMismatch})`],
  429: ['TooManyRequests', 'Rate limited (5000), with Retry-After'],
  500: ['InternalServerError', 'Internal error (8000)'],
  503: ['ServiceUnavailable', 'Service not wired (8001), retryable'],
  507: ['InsufficientStorage', `Artifact storage full (${ErrorCode.ArtifactStorageFull})`],
};

/** The response object of one error status: the error envelope, or problem+json when preferred. */
export function errorResponse(status: ErrorStatus): SchemaObject {
  return {
    description: ERROR_RESPONSE_NAMES[status][1],
    content: {
      'application/json': { schema: schemaRef('ErrorResponse') },
      'application/problem+json': { schema: schemaRef('ProblemDetail') },
    },
  };
}

/** Every error status with its name in components.responses (operations refer to them by that name). */
export function errorResponseNames(): Array<[status: ErrorStatus, name: string]> {
  return (Object.keys(ERROR_RESPONSE_NAMES).map(Number) as ErrorStatus[]).map((status) => [
    status,
    ERROR_RESPONSE_NAMES[status][0],
  ]);
}
