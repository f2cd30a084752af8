import {
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  Menu,
  NavLink,
  Text,
  Tooltip,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';

import { Loading } from '../components/Loading';
import { useLiveState } from './live';
import { type Ability, can, ROLE_LABELS } from './roles';
import { useSession } from './session';

const CommandPalette = lazy(() => import('./CommandPalette'));

/** Every page of the navigation; one with `needs` is offered only to the roles that may use it. */
export const NAVIGATION: ReadonlyArray<{ to: string; label: string; needs?: Ability }> = [
  { to: '/', label: 'Overview' },
  { to: '/tasks', label: 'Tasks' },
  { to: '/approvals', label: 'Approvals' },
  { to: '/agents', label: 'Agents' },
  { to: '/hiring', label: 'Hiring' },
  { to: '/memory', label: 'Memory' },
  { to: '/budget', label: 'Budget' },
  { to: '/meetings', label: 'Meetings' },
  { to: '/messages', label: 'Messages' },
  { to: '/artifacts', label: 'Artifacts' },
  { to: '/reports', label: 'Reports' },
  { to: '/providers', label: 'Providers' },
  { to: '/settings', label: 'Settings' },
  { to: '/people', label: 'People', needs: 'administer' },
  { to: '/audit', label: 'Audit', needs: 'audit' },
  { to: '/backups', label: 'Backups', needs: 'administer' },
];

/**
 * The light or dark theme: the system's preference until the person chooses (kept in this browser).
 * A button with the switch role rather than Mantine's Switch keeps the first page's JavaScript small.
 */
function ThemeSwitch() {
  const { setColorScheme } = useMantineColorScheme();
  const dark = useComputedColorScheme('light') === 'dark';
  return (
    <Button
      variant={dark ? 'filled' : 'default'}
      size="xs"
      role="switch"
      aria-checked={dark}
      onClick={() => setColorScheme(dark ? 'light' : 'dark')}
    >
      Dark theme
    </Button>
  );
}

const LIVE_LABEL = { live: 'Live', connecting: 'Connecting', offline: 'Offline' } as const;
const LIVE_COLOR = { live: 'green', connecting: 'yellow', offline: 'red' } as const;
const LIVE_HINT = {
  live: 'Changes made anywhere appear here as they happen',
  connecting: 'Connecting to live updates',
  offline: 'Live updates are interrupted; reconnecting. Pages still load on demand.',
} as const;

/** Banner, navigation and main landmarks around every signed-in page. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const { me, signOut } = useSession();
  const live = useLiveState();
  const { pathname } = useLocation();
  const [palette, setPalette] = useState(false);
  useHotkeys([['mod+K', () => setPalette(true)]], []);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header component="header">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text fw={700} size="lg" component={RouterLink} to="/" c="inherit" td="none">
              SynthOrg
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Button variant="default" size="xs" onClick={() => setPalette(true)} aria-keyshortcuts="Control+K Meta+K">
              Go to… (Ctrl K)
            </Button>
            <ThemeSwitch />
            <Tooltip label={LIVE_HINT[live]}>
              <Badge
                color={LIVE_COLOR[live]}
                variant="dot"
                role="status"
                aria-label={`Live updates: ${LIVE_LABEL[live]}`}
              >
                {LIVE_LABEL[live]}
              </Badge>
            </Tooltip>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <UnstyledButton aria-label={`Account menu for ${me.username}`}>
                  <Text size="sm" fw={500}>
                    {me.username}{' '}
                    <Text span size="xs" c="dimmed">
                      ({ROLE_LABELS[me.role] ?? me.role})
                    </Text>
                  </Text>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={RouterLink} to="/account">
                  Account and sessions
                </Menu.Item>
                <Menu.Item onClick={() => void signOut()}>Sign out</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar component="nav" aria-label="Main" p="xs">
        {NAVIGATION.filter((item) => !item.needs || can(me.role, item.needs)).map((item) => (
          <NavLink
            key={item.to}
            component={RouterLink}
            to={item.to}
            label={item.label}
            variant="filled"
            active={item.to === '/' ? pathname === '/' : pathname.startsWith(item.to)}
            onClick={close}
          />
        ))}
        <Button component="a" href="/docs/api" variant="subtle" size="xs" mt="auto" target="_blank" rel="noreferrer">
          API reference
        </Button>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
        {palette ? (
          <Suspense fallback={null}>
            <CommandPalette onClose={() => setPalette(false)} />
          </Suspense>
        ) : null}
      </AppShell.Main>
    </AppShell>
  );
}
