import { QueryClient } from '@tanstack/react-query';

import { ApiError, createApiClient } from '@app/client';

/** The session's CSRF token, from the cookie the server sets beside the session cookie. */
export function csrfToken(): string | null {
  const match = /(?:^|;\s*)csrf_token=([^;]+)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]) : null;
}

type UnauthorizedListener = (error: ApiError) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called on every 401 (the session ended or expired): the app returns to sign-in. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** The console's one client: the page's origin, the session cookie and its CSRF header. */
export const api = createApiClient({
  baseUrl: window.location.origin,
  csrf: csrfToken,
  // Resolved at call time, so tests can stand in for the network.
  fetch: (input) => globalThis.fetch(input),
  onUnauthorized: (error) => unauthorizedListeners.forEach((listener) => listener(error)),
});

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // A refusal will not change by asking again; a dropped connection may.
        retry: (failures, error) => error instanceof ApiError && error.code === ApiError.NETWORK && failures < 2,
      },
      mutations: { retry: false },
    },
  });
}
