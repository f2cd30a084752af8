import type { OpenAPIObject } from '@nestjs/swagger';

import { ErrorCode } from '@app/domain';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@app/platform';

const PARAMETER_NAME = 'IdempotencyKey';
const MUTATING_METHODS = ['post', 'put', 'patch', 'delete'] as const;
/** Routes whose answers are credentials: the header is accepted there but never applied. */
const CREDENTIAL_PATHS = /^\/api\/v1\/auth\//;

interface OperationLike {
  parameters?: unknown[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/**
 * Declares the `Idempotency-Key` header once in `components.parameters` and refers to it from every
 * mutating operation it applies to (not the credential routes, not streamed answers).
 */
export function addIdempotencyKeyHeader(document: OpenAPIObject): void {
  const components = (document.components ??= {});
  components.parameters = {
    ...components.parameters,
    [PARAMETER_NAME]: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. ' +
        'A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; ' +
        `another payload gets 422 (${ErrorCode.IdempotencyKeyMismatch}); a retry while the first request runs ` +
        `gets 409 (${ErrorCode.IdempotencyKeyInFlight}, retryable); a malformed key gets 400 ` +
        `(${ErrorCode.IdempotencyKeyInvalid}). Server errors and request validation failures release the key.`,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[\\x21-\\x7E]+$' },
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    if (CREDENTIAL_PATHS.test(path)) {
      continue;
    }
    for (const method of MUTATING_METHODS) {
      const operation = item[method] as OperationLike | undefined;
      if (operation && !isStreamed(operation)) {
        operation.parameters = [...(operation.parameters ?? []), { $ref: `#/components/parameters/${PARAMETER_NAME}` }];
      }
    }
  }
}

function isStreamed(operation: OperationLike): boolean {
  return Object.values(operation.responses ?? {}).some((response) => 'text/event-stream' in (response.content ?? {}));
}
