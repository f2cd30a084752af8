import { ApiHeader } from '@nestjs/swagger';

/** Documents the optional `If-Match` header of a compare-and-set write (a stale ETag answers 409, 4002). */
export function ApiIfMatch(): MethodDecorator {
  return ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'ETag from a previous read; a stale value answers 409 (code 4002)',
  });
}
