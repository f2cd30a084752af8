import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { lazy, Suspense, useState } from 'react';
import { createBrowserRouter, type RouteObject, RouterProvider } from 'react-router';

import { Loading } from '../components/Loading';
import { createQueryClient } from './api';
import { LiveProvider } from './live';
import { RequireSession } from './session';
import { Shell } from './Shell';
import { cssVariablesResolver, theme } from './theme';

const SetupWizard = lazy(() => import('../pages/setup/SetupWizard'));
const SignIn = lazy(() => import('../pages/auth/SignIn'));
const Account = lazy(() => import('../pages/auth/Account'));
const Overview = lazy(() => import('../pages/overview/Overview'));
const Tasks = lazy(() => import('../pages/tasks/Tasks'));
const TaskDetail = lazy(() => import('../pages/tasks/TaskDetail'));
const Approvals = lazy(() => import('../pages/approvals/Approvals'));
const Agents = lazy(() => import('../pages/agents/Agents'));
const AgentDetail = lazy(() => import('../pages/agents/AgentDetail'));
const Hiring = lazy(() => import('../pages/hiring/Hiring'));
const Memory = lazy(() => import('../pages/memory/Memory'));
const Budget = lazy(() => import('../pages/budget/Budget'));
const Providers = lazy(() => import('../pages/providers/Providers'));
const Settings = lazy(() => import('../pages/settings/Settings'));
const People = lazy(() => import('../pages/people/People'));
const Audit = lazy(() => import('../pages/audit/Audit'));
const Backups = lazy(() => import('../pages/backups/Backups'));
const Meetings = lazy(() => import('../pages/meetings/Meetings'));
const MeetingDetail = lazy(() => import('../pages/meetings/Meetings').then((m) => ({ default: m.MeetingDetail })));
const Messages = lazy(() => import('../pages/messages/Messages'));
const Artifacts = lazy(() => import('../pages/artifacts/Artifacts'));
const Reports = lazy(() => import('../pages/reports/Reports'));
const NotFound = lazy(() => import('../pages/NotFound'));

/**
 * The nonce the server put in the page for this response: the component library's own <style>
 * elements carry it, so the Content-Security-Policy admits them and no other inline style element.
 */
function styleNonce(): string | undefined {
  const content = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  return content && !content.startsWith('__') ? content : undefined;
}
const nonce = styleNonce();
if (nonce) {
  // The scroll lock of dialogs and menus writes a <style> element of its own: it carries the nonce too.
  setNonce(nonce);
}

export const routes: RouteObject[] = [
  { path: '/setup/*', element: <SetupWizard /> },
  { path: '/login', element: <SignIn /> },
  {
    element: (
      <RequireSession>
        <LiveProvider>
          <Shell />
        </LiveProvider>
      </RequireSession>
    ),
    children: [
      { index: true, element: <Overview /> },
      { path: 'tasks', element: <Tasks /> },
      { path: 'tasks/:taskId', element: <TaskDetail /> },
      { path: 'approvals', element: <Approvals /> },
      { path: 'agents', element: <Agents /> },
      { path: 'agents/:agentName', element: <AgentDetail /> },
      { path: 'hiring', element: <Hiring /> },
      { path: 'memory', element: <Memory /> },
      { path: 'budget', element: <Budget /> },
      { path: 'meetings', element: <Meetings /> },
      { path: 'meetings/:meetingId', element: <MeetingDetail /> },
      { path: 'messages', element: <Messages /> },
      { path: 'artifacts', element: <Artifacts /> },
      { path: 'reports', element: <Reports /> },
      { path: 'providers', element: <Providers /> },
      { path: 'settings', element: <Settings /> },
      { path: 'people', element: <People /> },
      { path: 'audit', element: <Audit /> },
      { path: 'backups', element: <Backups /> },
      { path: 'account', element: <Account /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function App() {
  const [client] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      getStyleNonce={nonce ? () => nonce : undefined}
    >
      <Notifications position="top-right" />
      <QueryClientProvider client={client}>
        <Suspense fallback={<Loading />}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryClientProvider>
    </MantineProvider>
  );
}
