import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone, notifyError } from '../../app/errors';
import { formatDateTime, relativeTime } from '../../app/format';
import { ROLE_LABELS } from '../../app/roles';
import { sessionKey, useSession, useSetupStatus } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';

type Session = Schemas['SessionResponse'];

export const ownSessionsKey = ['account', 'sessions'] as const;

/** "Firefox on Linux" from a user agent; the raw text stays available as a tooltip. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) {
    return 'Unknown device';
  }
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : userAgent.split(/[/\s]/)[0] || 'Unknown client';
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}

/** This session first, then the most recently active. */
function ordered(sessions: Session[]): Session[] {
  return [...sessions].sort(
    (a, b) => Number(b.is_current) - Number(a.is_current) || b.last_active_at.localeCompare(a.last_active_at),
  );
}

/** The own password: current one, new one twice. Forced after an administrator set it. */
function ChangePassword({ forced, focus, minLength }: { forced: boolean; focus: boolean; minLength: number }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!current || next.length < minLength || next !== confirm) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unwrap(
        api.POST('/api/v1/auth/change-password', { body: { current_password: current, new_password: next } }),
      );
      notifyDone('Your password was changed; your other sessions were signed out');
      setCurrent('');
      setNext('');
      setConfirm('');
      setChecked(false);
      await client.invalidateQueries({ queryKey: sessionKey });
      await client.invalidateQueries({ queryKey: ownSessionsKey });
      if (forced) {
        await navigate('/', { replace: true });
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="change-password">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack maw={420}>
          <Title order={2} size="h4" id="change-password">
            Change password
          </Title>
          {forced ? (
            <Alert color="yellow" variant="light" title="Choose a new password to continue">
              Your password was set by someone else. Choose your own before using the console.
            </Alert>
          ) : (
            <Text size="sm" c="gray.7">
              Changing it signs out every other session of yours.
            </Text>
          )}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            autoFocus={focus}
            required
            withAsterisk={false}
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={checked && !current ? 'Enter your current password' : undefined}
          />
          <PasswordInput
            label="New password"
            description={`At least ${minLength} characters`}
            autoComplete="new-password"
            required
            withAsterisk={false}
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={checked && next.length < minLength ? `Use at least ${minLength} characters` : undefined}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            withAsterisk={false}
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            error={checked && confirm !== next ? 'The passwords do not match' : undefined}
          />
          {error ? <ErrorNotice error={error} title="The password was not changed" /> : null}
          <Group>
            <Button type="submit" loading={busy}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function SessionRow({ session }: { session: Session }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const device = deviceName(session.user_agent);

  const revoke = async () => {
    setBusy(true);
    try {
      await unwrap(
        api.DELETE('/api/v1/auth/sessions/{session_id}', { params: { path: { session_id: session.session_id } } }),
      );
      notifyDone(`The session on ${device} was signed out`);
      await client.invalidateQueries({ queryKey: ownSessionsKey });
    } catch (error) {
      notifyError(error, 'The session was not signed out');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={session.user_agent ?? 'No browser information'} multiline maw={360}>
            <Text size="sm" fw={session.is_current ? 600 : 400} tabIndex={0}>
              {device}
            </Text>
          </Tooltip>
          {session.is_current ? (
            <Badge variant="light" color="teal">
              This session
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>{session.ip_address ?? '—'}</Table.Td>
      <Table.Td>{formatDateTime(session.created_at)}</Table.Td>
      <Table.Td>
        <time dateTime={session.last_active_at} title={formatDateTime(session.last_active_at)}>
          {relativeTime(session.last_active_at)}
        </time>
      </Table.Td>
      <Table.Td>{formatDateTime(session.expires_at)}</Table.Td>
      <Table.Td>
        {session.is_current ? null : (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={busy}
            onClick={() => void revoke()}
            aria-label={`Sign out the session on ${device} from ${session.ip_address ?? 'an unknown address'}, started ${formatDateTime(session.created_at)}`}
          >
            Sign out
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** The person's own sessions: where they are signed in, this one marked, any other one revocable. */
function Sessions() {
  const client = useQueryClient();
  const sessions = useQuery({
    queryKey: ownSessionsKey,
    queryFn: () => unwrap(api.GET('/api/v1/auth/sessions')),
  });
  const [busy, setBusy] = useState(false);
  const others = sessions.data?.filter((s) => !s.is_current) ?? [];

  const revokeOthers = async () => {
    setBusy(true);
    try {
      for (const session of others) {
        await unwrap(
          api.DELETE('/api/v1/auth/sessions/{session_id}', { params: { path: { session_id: session.session_id } } }),
        );
      }
      notifyDone('Every other session was signed out');
    } catch (error) {
      notifyError(error, 'Not every session was signed out');
    } finally {
      setBusy(false);
      await client.invalidateQueries({ queryKey: ownSessionsKey });
    }
  };

  let body;
  if (sessions.error) {
    body = <ErrorNotice error={sessions.error} title="Your sessions could not be loaded" />;
  } else if (!sessions.data) {
    body = <Loading label="Loading your sessions" />;
  } else if (sessions.data.length === 0) {
    body = <Empty title="No active sessions">Signing in from a browser or the command line starts a session.</Empty>;
  } else {
    body = (
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Device</Table.Th>
              <Table.Th scope="col">Address</Table.Th>
              <Table.Th scope="col">Signed in</Table.Th>
              <Table.Th scope="col">Last active</Table.Th>
              <Table.Th scope="col">Expires</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ordered(sessions.data).map((session) => (
              <SessionRow key={session.session_id} session={session} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="own-sessions">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="own-sessions">
              Your sessions
            </Title>
            <Text size="sm" c="gray.7">
              Everywhere you are signed in. Sign out a session you do not recognise.
            </Text>
          </div>
          {others.length > 0 ? (
            <Button variant="light" color="red" loading={busy} onClick={() => void revokeOthers()}>
              Sign out all other sessions
            </Button>
          ) : null}
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}

/** /account: the signed-in person, their password and their sessions. */
export default function Account() {
  const { me, signOut } = useSession();
  const [params] = useSearchParams();
  const status = useSetupStatus();
  // The address asks for it when the service does (me.must_change_password); only the service decides.
  const forced = me.must_change_password;
  const focusPassword = forced || params.get('change_password') === '1';
  const minLength = status.data?.min_password_length ?? 12;

  return (
    <Stack>
      <PageHeader
        title="Account"
        description={`Signed in as ${me.username} (${ROLE_LABELS[me.role] ?? me.role})${me.department ? `, ${me.department}` : ''}`}
        actions={
          <Button variant="default" onClick={() => void signOut()}>
            Sign out
          </Button>
        }
      />
      <ChangePassword forced={forced} focus={focusPassword} minLength={minLength} />
      {/* Until the password is changed the service answers nothing else of this person. */}
      {me.must_change_password ? null : <Sessions />}
    </Stack>
  );
}
