import { Button, Group, List, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { sessionKey, setupStatusKey } from '../../app/session';

/**
 * Step 1: the first CEO account. The service signs the person in with the answer (session cookie),
 * so the wizard continues as that person.
 */
export function AccountStep({ minPasswordLength }: { minPasswordLength: number }) {
  const client = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (password.length < minPasswordLength || confirm !== password || !username.trim()) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unwrap(api.POST('/api/v1/auth/setup', { body: { username: username.trim(), password } }));
      client.removeQueries({ queryKey: sessionKey });
      await client.invalidateQueries({ queryKey: setupStatusKey });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack maw={440}>
          <div>
            <Title order={2} size="h3">
              Create the CEO account
            </Title>
            <Text size="sm" c="dimmed">
              The CEO can do everything in the console: staff the company, set budgets and approve work. You sign in
              with this account once it exists.
            </Text>
          </div>
          <TextInput
            label="Username"
            autoComplete="username"
            required
            withAsterisk={false}
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            error={checked && !username.trim() ? 'Choose a username' : undefined}
          />
          <PasswordInput
            label="Password"
            description={`At least ${minPasswordLength} characters`}
            autoComplete="new-password"
            required
            withAsterisk={false}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={
              checked && password.length < minPasswordLength
                ? `Use at least ${minPasswordLength} characters`
                : undefined
            }
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            required
            withAsterisk={false}
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            error={checked && confirm !== password ? 'The passwords do not match' : undefined}
          />
          {error ? <ErrorNotice error={error} title="The account was not created" /> : null}
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Create account
            </Button>
          </Group>
        </Stack>
      </form>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="setup-ahead">
        <Title order={3} size="h5" id="setup-ahead" mb="xs">
          What comes next
        </Title>
        <List type="ordered" size="sm" spacing="xs">
          <List.Item>Name your company and pick a template: its departments and agents come with it.</List.Item>
          <List.Item>Connect a model provider: a cloud service with an API key, or a server on your machine.</List.Item>
          <List.Item>Review the agents: rename them and choose their models.</List.Item>
          <List.Item>Finish: the company starts and you supervise it from the overview.</List.Item>
        </List>
        <Text size="xs" c="dimmed" mt="sm">
          You can close this page at any point; setup continues where you left it.
        </Text>
      </Paper>
    </SimpleGrid>
  );
}
