/**
 * The typed client of the SynthOrg API, shared by the console and the command line: the paths and
 * schemas generated from openapi.json (schema.ts, drift-checked in CI) and a thin openapi-fetch
 * client. No business logic lives here; every call is one request of the public API.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';

import type { components, paths } from './schema';

export type { components, paths };
export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

/** The 4-digit error of a failed request, as the API reports it (`error_detail`). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number,
    readonly category: string,
    readonly retryable: boolean = false,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The code a network failure (no answer at all) is reported with. */
  static readonly NETWORK = 0;
}

export interface ApiClientOptions {
  /** Origin of the API ('' in the console: the page's own origin). */
  baseUrl?: string;
  /** A bearer token (the CLI); the console uses the session cookie instead. */
  token?: () => string | null;
  /** The CSRF token sent on every mutation of a cookie session (the console reads its cookie). */
  csrf?: () => string | null;
  /** Told of every 401, after which the caller's promise still rejects. */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A client whose requests carry the session's credentials; errors surface through `unwrap`. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    credentials: 'same-origin',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth: Middleware = {
    onRequest({ request }) {
      const token = options.token?.();
      if (token) {
        request.headers.set('authorization', `Bearer ${token}`);
      }
      const csrf = SAFE_METHODS.has(request.method) ? null : options.csrf?.();
      if (csrf) {
        request.headers.set('x-csrf-token', csrf);
      }
      return request;
    },
    async onResponse({ response }) {
      if (response.status === 401 && options.onUnauthorized) {
        options.onUnauthorized(await errorOf(response.clone()));
      }
      return response;
    },
  };
  client.use(auth);
  return client;
}

interface ErrorBody {
  error?: unknown;
  error_detail?: {
    error_code?: unknown;
    error_category?: unknown;
    retryable?: unknown;
    retry_after?: unknown;
  } | null;
  detail?: unknown;
  error_code?: unknown;
}

/** The ApiError a failed response carries (its envelope, or problem+json, or only a status). */
export async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as ErrorBody | null;
  return errorFromBody(response.status, body);
}

function errorFromBody(status: number, body: ErrorBody | null): ApiError {
  const detail = body?.error_detail ?? null;
  const message =
    typeof body?.error === 'string' ? body.error : typeof body?.detail === 'string' ? body.detail : `HTTP ${status}`;
  const code = Number(detail?.error_code ?? body?.error_code ?? 0);
  return new ApiError(
    message,
    status,
    Number.isFinite(code) ? code : 0,
    typeof detail?.error_category === 'string' ? detail.error_category : 'unknown',
    detail?.retryable === true,
    typeof detail?.retry_after === 'number' ? detail.retry_after : null,
  );
}

/** What every openapi-fetch call resolves to. */
interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The payload of a successful call (`data` of the envelope), or an ApiError with the message and
 * 4-digit code of a failed one. A request that got no answer is an ApiError with status and code 0.
 */
export async function unwrap<T>(pending: Promise<FetchResult<{ data?: T }>>): Promise<Exclude<T, undefined>> {
  let result: FetchResult<{ data?: T }>;
  try {
    result = await pending;
  } catch (error) {
    throw new ApiError(
      `the service could not be reached: ${(error as Error).message}`,
      0,
      ApiError.NETWORK,
      'network',
      true,
    );
  }
  if (result.response.ok) {
    // A 204 (No Content) has no payload: such calls are awaited, not read.
    return result.data?.data as Exclude<T, undefined>;
  }
  return Promise.reject(errorFromBody(result.response.status, result.error ?? null));
}

/** A page of a list and where it sits (the `pagination` of a paginated answer). */
export interface PageOf<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}

/** Like `unwrap`, for the paginated lists: the items with their pagination. */
export async function unwrapPage<T>(
  pending: Promise<FetchResult<{ data?: T[]; pagination?: { total: number; offset: number; limit: number } }>>,
): Promise<PageOf<T>> {
  const result = await pending.catch((error: Error) => {
    throw new ApiError(`the service could not be reached: ${error.message}`, 0, ApiError.NETWORK, 'network', true);
  });
  if (result.response.ok && result.data?.data && result.data.pagination) {
    return { items: result.data.data, ...result.data.pagination };
  }
  throw errorFromBody(result.response.status, result.error ?? null);
}
