import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';

import { unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { sessionKey, useSetupStatus } from '../../app/session';

/** Where sign-in may send the person back to: a page of the console, never another site. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export default function SignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const status = useSetupStatus();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  if (status.data?.needs_admin) {
    return <Navigate to="/setup" replace />;
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await unwrap(api.POST('/api/v1/auth/login', { body: { username, password } }));
      client.removeQueries({ queryKey: sessionKey });
      await navigate(safeNext(params.get('next')), { replace: true });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={380} component="form" onSubmit={(e) => void submit(e)}>
        <Stack>
          <Title order={1} size="h2">
            Sign in to SynthOrg
          </Title>
          <Text size="sm" c="dimmed">
            Supervise your company of AI agents.
          </Text>
          <TextInput
            label="Username"
            autoComplete="username"
            required
            withAsterisk={false}
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            withAsterisk={false}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          {error ? <ErrorNotice error={error} title="Sign-in failed" /> : null}
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
