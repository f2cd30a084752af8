import { ApiError, unwrap } from '@app/client';

interface Fetched<T> {
  data?: { data?: T };
  error?: unknown;
  response: Response;
}

/** A resource and the version the server tagged it with (its ETag header), for a later If-Match. */
export async function withEtag<T>(
  pending: Promise<Fetched<T>>,
): Promise<{ value: Exclude<T, undefined>; etag: string | null }> {
  const result = await pending.catch((error: Error) => {
    throw new ApiError(`the service could not be reached: ${error.message}`, 0, ApiError.NETWORK, 'network', true);
  });
  const value = await unwrap(Promise.resolve(result));
  return { value, etag: result.response.headers.get('etag') };
}

/** A 409 Conflict: someone changed the resource since it was read (or it is in use). */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 409 || error.status === 412);
}
