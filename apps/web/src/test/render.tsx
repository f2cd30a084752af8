import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';

import type { Me } from '../app/session';
import { cssVariablesResolver, theme } from '../app/theme';
import { SessionContext } from '../app/session';

/** A canned answer of the API: the payload (wrapped in the envelope) or an error with its code. */
export type Answer =
  | {
      data: unknown;
      status?: number;
      pagination?: { total: number; offset: number; limit: number };
      /** Response headers, e.g. an ETag. */
      headers?: Record<string, string>;
    }
  | { error: string; code: number; status: number }
  | { pending: true };

type Handler = Answer | ((request: Request, body: unknown) => Answer);

export interface FakeApi {
  /** Every request the page made, as "METHOD /path?query" with its JSON body. */
  calls: Array<{ route: string; body: unknown }>;
}

/**
 * Stands in for the network: `routes` maps "METHOD /api/v1/path" (query ignored) to an answer.
 * An unknown route fails the test loudly with a 599, so every call a page makes is accounted for.
 */
export function fakeApi(routes: Record<string, Handler>): FakeApi {
  const calls: FakeApi['calls'] = [];
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url, 'http://localhost');
    const text = input.method === 'GET' ? '' : await input.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    calls.push({ route: `${input.method} ${url.pathname}${url.search}`, body });
    const handler = routes[`${input.method} ${url.pathname}`];
    const answer = typeof handler === 'function' ? handler(input, body) : handler;
    if (!answer) {
      return json(599, { data: null, success: false, error: `no fake for ${input.method} ${url.pathname}` });
    }
    if ('pending' in answer) {
      return new Promise<Response>(() => undefined);
    }
    if ('error' in answer) {
      return json(answer.status, {
        data: null,
        success: false,
        error: answer.error,
        error_detail: {
          error_code: answer.code,
          error_category: 'validation',
          retryable: false,
          retry_after: null,
          detail: answer.error,
          title: 'Error',
          type: 'about:blank',
          status: answer.status,
          instance: url.pathname,
        },
      });
    }
    return json(
      answer.status ?? 200,
      {
        data: answer.data,
        error: null,
        error_detail: null,
        success: true,
        ...(answer.pagination ? { pagination: answer.pagination } : {}),
      },
      answer.headers,
    );
  });
  return { calls };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export const CEO: Me = {
  id: 'u-ceo',
  username: 'ceo',
  role: 'ceo',
  department: null,
  must_change_password: false,
  session_id: 's-1',
};

export const OBSERVER: Me = { ...CEO, id: 'u-obs', username: 'watcher', role: 'observer' };

/** Renders a page as a signed-in person would see it, at `path` (the route pattern is `route`). */
export function renderPage(
  page: ReactElement,
  options: { me?: Me | null; path?: string; route?: string } = {},
): RenderResult & { client: QueryClient } {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const me = options.me === undefined ? CEO : options.me;
  const element = me ? (
    <SessionContext.Provider value={{ me, signOut: () => Promise.resolve() }}>{page}</SessionContext.Provider>
  ) : (
    page
  );
  const router = createMemoryRouter([{ path: options.route ?? '*', element }], {
    initialEntries: [options.path ?? '/'],
  });
  const result = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, client };
}
