import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone, notifyError } from '../../app/errors';
import { formatDateTime, relativeTime } from '../../app/format';
import { can, ROLE_LABELS } from '../../app/roles';
import { useSession, useSetupStatus } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ListBody } from '../../components/ListBody';
import { deviceName } from '../auth/Account';

type User = Schemas['UserResponse'];
type AssignableRole = Schemas['CreateUserRequest']['role'];

const ROLES: AssignableRole[] = ['ceo', 'manager', 'board_member', 'pair_programmer', 'observer'];
const PAGE = 25;
export const usersKey = ['people', 'users'] as const;

function NewUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const status = useSetupStatus();
  const minLength = status.data?.min_password_length ?? 12;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<AssignableRole>('observer');
  const [department, setDepartment] = useState('');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const userProblem = username.trim() ? null : 'Enter a username';
  const passwordProblem = password.length < minLength ? `Use at least ${minLength} characters` : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (userProblem || passwordProblem) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await unwrap(
        api.POST('/api/v1/users', {
          body: {
            username: username.trim(),
            password,
            role,
            ...(department.trim() ? { department: department.trim() } : {}),
          },
        }),
      );
      notifyDone(
        `${user.username} was created as ${ROLE_LABELS[user.role]}; they choose their own password at first sign-in`,
      );
      setUsername('');
      setPassword('');
      setDepartment('');
      setChecked(false);
      await client.invalidateQueries({ queryKey: usersKey });
      onClose();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="New person">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            label="Username"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={checked ? userProblem : undefined}
          />
          <PasswordInput
            label="First password"
            description={`At least ${minLength} characters; they must change it when they first sign in`}
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={checked ? passwordProblem : undefined}
          />
          <NativeSelect
            label="Role"
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as AssignableRole)}
            data={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          />
          <TextInput
            label="Department"
            description="Optional; a manager acts within their department"
            value={department}
            onChange={(e) => setDepartment(e.currentTarget.value)}
          />
          {error ? <ErrorNotice error={error} title="The person was not created" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function UserRow({ user, self, onDelete }: { user: User; self: boolean; onDelete: (user: User) => void }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  const changeRole = async (role: AssignableRole) => {
    setBusy(true);
    try {
      await unwrap(
        api.PATCH('/api/v1/users/{user_id}', {
          params: { path: { user_id: user.id } },
          body: { role, department: user.department },
        }),
      );
      notifyDone(`${user.username} is now ${ROLE_LABELS[role]}`);
      await client.invalidateQueries({ queryKey: usersKey });
    } catch (error) {
      notifyError(error, `The role of ${user.username} was not changed`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Table.Tr>
      <Table.Td>
        <Group gap={6}>
          <Text size="sm" fw={500}>
            {user.username}
          </Text>
          {self ? (
            <Badge size="sm" variant="light" color="teal">
              You
            </Badge>
          ) : null}
          {user.must_change_password ? (
            <Badge size="sm" variant="light" color="yellow">
              First sign-in pending
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>
        {user.role === 'system' || self ? (
          ROLE_LABELS[user.role]
        ) : (
          <NativeSelect
            size="xs"
            aria-label={`Role of ${user.username}`}
            value={user.role}
            disabled={busy}
            onChange={(e) => void changeRole(e.currentTarget.value as AssignableRole)}
            data={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          />
        )}
      </Table.Td>
      <Table.Td>{user.department ?? '—'}</Table.Td>
      <Table.Td>{formatDateTime(user.created_at)}</Table.Td>
      <Table.Td>
        {self || user.role === 'system' ? null : (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => onDelete(user)}
            aria-label={`Delete ${user.username}`}
          >
            Delete
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function DeleteUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const remove = async () => {
    if (!user) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unwrap(api.DELETE('/api/v1/users/{user_id}', { params: { path: { user_id: user.id } } }));
      notifyDone(`${user.username} was deleted and signed out everywhere`);
      await client.invalidateQueries({ queryKey: ['people'] });
      onClose();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={user !== null} onClose={onClose} title={user ? `Delete ${user.username}?` : ''}>
      <Stack>
        <Text size="sm">
          The account is removed and every session of it is signed out. What the person did stays in the audit trail.
        </Text>
        {error ? <ErrorNotice error={error} title="The account was not deleted" /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep the account
          </Button>
          <Button color="red" loading={busy} onClick={() => void remove()}>
            Delete {user?.username}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Every active session of every person, each revocable by the CEO. */
function AllSessions() {
  const client = useQueryClient();
  const sessions = useQuery({
    queryKey: ['people', 'sessions'],
    queryFn: () => unwrap(api.GET('/api/v1/auth/sessions', { params: { query: { scope: 'all' } } })),
  });
  const [busy, setBusy] = useState<string | null>(null);

  const revoke = async (id: string, who: string) => {
    setBusy(id);
    try {
      await unwrap(api.DELETE('/api/v1/auth/sessions/{session_id}', { params: { path: { session_id: id } } }));
      notifyDone(`A session of ${who} was signed out`);
      await client.invalidateQueries({ queryKey: ['people', 'sessions'] });
    } catch (error) {
      notifyError(error, 'The session was not signed out');
    } finally {
      setBusy(null);
    }
  };

  let body;
  if (sessions.error) {
    body = <ErrorNotice error={sessions.error} title="The sessions could not be loaded" />;
  } else if (!sessions.data) {
    body = <Loading label="Loading the sessions" />;
  } else if (sessions.data.length === 0) {
    body = <Empty title="No active sessions" />;
  } else {
    const ordered = [...sessions.data].sort(
      (a, b) => a.username.localeCompare(b.username) || b.last_active_at.localeCompare(a.last_active_at),
    );
    body = (
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label="Active sessions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Person</Table.Th>
              <Table.Th scope="col">Device</Table.Th>
              <Table.Th scope="col">Address</Table.Th>
              <Table.Th scope="col">Last active</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ordered.map((s) => (
              <Table.Tr key={s.session_id}>
                <Table.Td>{s.username}</Table.Td>
                <Table.Td>{deviceName(s.user_agent)}</Table.Td>
                <Table.Td>{s.ip_address ?? '—'}</Table.Td>
                <Table.Td>{relativeTime(s.last_active_at)}</Table.Td>
                <Table.Td>
                  {s.is_current ? (
                    <Badge size="sm" variant="light" color="teal">
                      This session
                    </Badge>
                  ) : (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      loading={busy === s.session_id}
                      onClick={() => void revoke(s.session_id, s.username)}
                      aria-label={`Sign out the session of ${s.username} on ${deviceName(s.user_agent)}`}
                    >
                      Sign out
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="all-sessions">
      <Stack gap="sm">
        <Title order={2} size="h4" id="all-sessions">
          Sessions
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}

/** /people (CEO): the human accounts, their roles and departments, and everyone's sessions. */
export default function People() {
  const { me } = useSession();
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);
  const allowed = can(me.role, 'administer');
  const users = useQuery({
    queryKey: [...usersKey, offset],
    queryFn: () => unwrapPage(api.GET('/api/v1/users', { params: { query: { offset, limit: PAGE } } })),
    placeholderData: keepPreviousData,
    enabled: allowed,
  });

  if (!allowed) {
    return (
      <>
        <PageHeader title="People" />
        <Alert color="blue" variant="light" title="Only the CEO manages people">
          Your role can see its own account and sessions on the Account page.
        </Alert>
      </>
    );
  }

  const body = (
    <ListBody
      list={users}
      label="People"
      errorTitle="The people could not be loaded"
      loadingLabel="Loading the people"
      emptyTitle="No accounts"
      minWidth={720}
      head={
        <>
          <Table.Th scope="col">Username</Table.Th>
          <Table.Th scope="col">Role</Table.Th>
          <Table.Th scope="col">Department</Table.Th>
          <Table.Th scope="col">Created</Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
      row={(user) => <UserRow key={user.id} user={user} self={user.id === me.id} onDelete={setDeleting} />}
      pager={{ offset, limit: PAGE, label: 'Pages of people', onChange: setOffset }}
    />
  );

  return (
    <Stack>
      <PageHeader
        title="People"
        description="The people who use the console and the command line, with their roles."
        actions={<Button onClick={() => setCreating(true)}>New person</Button>}
      />
      <SimpleGrid cols={1}>{body}</SimpleGrid>
      <AllSessions />
      <NewUserDialog opened={creating} onClose={() => setCreating(false)} />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
