import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

import { unwrap } from '@app/client';

import { api } from './api';
import { SessionContext } from './session';

export type LiveState = 'connecting' | 'live' | 'offline';

/** The channels the console follows, each invalidating the queries that start with its name. */
export const LIVE_CHANNELS = [
  'tasks',
  'agents',
  'budget',
  'approvals',
  'company',
  'departments',
  'projects',
  'providers',
  'system',
  'artifacts',
  'messages',
  'meetings',
] as const;

export interface LiveEvent {
  event_type: string;
  channel: string;
  timestamp: string;
  payload: Record<string, unknown>;
  event_id?: string;
}

const LiveContext = createContext<LiveState>('offline');

export function useLiveState(): LiveState {
  return useContext(LiveContext);
}

/** What an event makes stale: its channel's queries, and the overview's figures. */
export function applyEvent(client: QueryClient, event: LiveEvent): void {
  void client.invalidateQueries({ queryKey: [event.channel] });
  void client.invalidateQueries({ queryKey: ['overview'] });
  if (event.channel === 'tasks' || event.channel === 'approvals') {
    void client.invalidateQueries({ queryKey: ['activity'] });
  }
}

const BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000];

/**
 * One WebSocket per tab while signed in: a single-use ticket from POST /auth/ws-ticket, a
 * subscription to the console's channels, events applied to the cached queries, and reconnection
 * with growing back-off (and a refetch of everything once back, for what was missed).
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const session = useContext(SessionContext);
  // Until a forced password change is done the server refuses tickets: nothing to connect yet.
  const blocked = session?.me.must_change_password ?? true;
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    if (blocked) {
      setState('offline');
      return;
    }
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let stopped = false;

    const retry = () => {
      if (stopped) {
        return;
      }
      setState('offline');
      const wait = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 30_000;
      attempt += 1;
      timer = setTimeout(() => void connect(), wait);
    };

    const connect = async () => {
      setState((previous) => (previous === 'live' ? 'live' : 'connecting'));
      let ticket: string;
      try {
        ticket = (await unwrap(api.POST('/api/v1/auth/ws-ticket'))).ticket;
      } catch {
        retry();
        return;
      }
      if (stopped) {
        return;
      }
      const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${scheme}://${window.location.host}/api/v1/ws?ticket=${encodeURIComponent(ticket)}`);
      socket.onopen = () => {
        socket?.send(JSON.stringify({ action: 'subscribe', channels: LIVE_CHANNELS }));
        if (attempt > 0) {
          void client.invalidateQueries();
        }
        attempt = 0;
        setState('live');
      };
      socket.onmessage = (message) => {
        try {
          const frame = JSON.parse(String(message.data)) as Partial<LiveEvent>;
          if (typeof frame.channel === 'string' && typeof frame.event_type === 'string') {
            applyEvent(client, frame as LiveEvent);
          }
        } catch {
          // Not an event frame (an acknowledgement); nothing to apply.
        }
      };
      socket.onclose = () => {
        socket = null;
        retry();
      };
    };

    void connect();
    return () => {
      stopped = true;
      if (timer) {
        clearTimeout(timer);
      }
      socket?.close(1000, 'signed out');
    };
  }, [client, blocked]);

  return <LiveContext.Provider value={state}>{children}</LiveContext.Provider>;
}
