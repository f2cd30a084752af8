import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';

import { ApiError, type Schemas, unwrap } from '@app/client';

import { api, onUnauthorized } from './api';
import { Loading } from '../components/Loading';
import { ErrorNotice } from './errors';

export type Me = Schemas['UserInfoResponse'];

interface SessionValue {
  me: Me;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionValue | null>(null);

/** The signed-in person; only inside a signed-in page. */
export function useSession(): SessionValue {
  const session = useContext(SessionContext);
  if (!session) {
    throw new Error('useSession outside a signed-in page');
  }
  return session;
}

export const sessionKey = ['session'] as const;
export const setupStatusKey = ['setup', 'status'] as const;

export function useSetupStatus() {
  return useQuery({ queryKey: setupStatusKey, queryFn: () => unwrap(api.GET('/api/v1/setup/status')) });
}

/** Where to come back to after signing in: the page the person was on. */
export function signInPath(from: string): string {
  return from && from !== '/' && !from.startsWith('/login') ? `/login?next=${encodeURIComponent(from)}` : '/login';
}

/**
 * Pages behind a session: first run goes to the setup wizard, no session (or a 401 later) goes to
 * sign-in and back to where the person was.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const status = useSetupStatus();
  const me = useQuery({
    queryKey: sessionKey,
    queryFn: () => unwrap(api.GET('/api/v1/auth/me')),
    enabled: status.data !== undefined && !status.data.needs_admin,
    retry: false,
  });
  const here = `${location.pathname}${location.search}`;

  useEffect(
    () =>
      onUnauthorized(() => {
        client.removeQueries({ queryKey: sessionKey });
        void navigate(signInPath(`${window.location.pathname}${window.location.search}`), { replace: true });
      }),
    [client, navigate],
  );

  const signOut = useCallback(async () => {
    await unwrap(api.POST('/api/v1/auth/logout')).catch(() => undefined);
    client.clear();
    await navigate('/login', { replace: true });
  }, [client, navigate]);

  const value = useMemo(() => (me.data ? { me: me.data, signOut } : null), [me.data, signOut]);

  if (status.error) {
    return <ErrorNotice error={status.error} title="The service did not answer" />;
  }
  if (!status.data) {
    return <Loading label="Loading the console" />;
  }
  if (status.data.needs_admin) {
    return <Navigate to="/setup" replace />;
  }
  if (me.error) {
    if (me.error instanceof ApiError && me.error.status === 401) {
      return <Navigate to={signInPath(here)} replace />;
    }
    return <ErrorNotice error={me.error} title="Your session could not be checked" />;
  }
  if (!me.data || !value) {
    return <Loading label="Checking your session" />;
  }
  if (me.data.must_change_password && location.pathname !== '/account') {
    return <Navigate to="/account?change_password=1" replace />;
  }
  if (status.data.needs_setup && !location.pathname.startsWith('/setup') && me.data.role === 'ceo') {
    return <Navigate to="/setup" replace />;
  }
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
