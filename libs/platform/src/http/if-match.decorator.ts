import { ApiHeader } from '@nestjs/swagger';

/** Documents the optional `If-Match` header of a compare-and-set write (a stale ETag answers 409, 4002). */
export function ApiIfMatch(): MethodDecorator {
  return ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'ETag from a previous read; a stale value answers 409 (code 4002)',
  });
}

/**
 * Whether a write carrying this `If-Match` header may go ahead on the resource whose ETag is
 * `current`: no header (or an empty one) asks for no comparison, `*` matches anything, and
 * otherwise one of the listed tags must be the current one (a weak `W/` tag compares by its value).
 */
export function ifMatchSatisfied(ifMatch: string | undefined, current: string): boolean {
  if (ifMatch === undefined || ifMatch.trim() === '') {
    return true;
  }
  const offered = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return offered.includes('*') || offered.includes(current);
}

/** Whether the header asks for a comparison at all (a lost compare-and-set is then the caller's conflict). */
export function ifMatchGiven(ifMatch: string | undefined): boolean {
  return ifMatch !== undefined && ifMatch.trim() !== '' && !ifMatch.split(',').some((tag) => tag.trim() === '*');
}
