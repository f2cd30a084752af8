import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { Loading } from '../../components/Loading';

/** The host:port entries trusted for discovery and probing despite being private addresses. */
export function DiscoveryAllowlist({ ceo }: { ceo: boolean }) {
  const client = useQueryClient();
  const policy = useQuery({
    queryKey: ['providers', 'discovery-policy'],
    queryFn: () => unwrap(api.GET('/api/v1/providers/discovery-policy')),
  });
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const change = async (hostPort: string, remove: boolean) => {
    setBusy(hostPort);
    setError(null);
    try {
      await unwrap(
        api.POST(
          remove ? '/api/v1/providers/discovery-policy/remove-entry' : '/api/v1/providers/discovery-policy/entries',
          {
            body: { host_port: hostPort },
          },
        ),
      );
      if (!remove) {
        setEntry('');
      }
      await client.invalidateQueries({ queryKey: ['providers', 'discovery-policy'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="allowlist">
      <Stack gap="sm">
        <Title order={2} size="h4" id="allowlist">
          Discovery allowlist
        </Title>
        {policy.error ? <ErrorNotice error={policy.error} title="The allowlist could not be loaded" /> : null}
        {policy.data ? (
          <>
            <Text size="sm" c="dimmed">
              {policy.data.block_private_ips
                ? 'Private, loopback and link-local addresses are refused unless listed here.'
                : 'Private addresses are allowed on this service.'}
            </Text>
            {policy.data.host_port_allowlist.length === 0 ? (
              <Text size="sm">No address is trusted.</Text>
            ) : (
              <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {policy.data.host_port_allowlist.map((hp) => (
                  <Group component="li" key={hp} gap="xs">
                    <Text size="sm" ff="monospace">
                      {hp}
                    </Text>
                    {ceo ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        loading={busy === hp}
                        onClick={() => void change(hp, true)}
                        aria-label={`Remove ${hp} from the allowlist`}
                      >
                        Remove
                      </Button>
                    ) : null}
                  </Group>
                ))}
              </Stack>
            )}
            {ceo ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (entry.trim()) {
                    void change(entry.trim(), false);
                  }
                }}
              >
                <Group align="flex-end" gap="xs">
                  <TextInput
                    label="Trust an address"
                    placeholder="host:port, e.g. 127.0.0.1:11434"
                    value={entry}
                    onChange={(e) => setEntry(e.currentTarget.value)}
                  />
                  <Button type="submit" variant="light" disabled={!entry.trim()} loading={busy === entry.trim()}>
                    Add
                  </Button>
                </Group>
              </form>
            ) : null}
          </>
        ) : policy.error ? null : (
          <Loading label="Loading the allowlist" />
        )}
        {error ? <ErrorNotice error={error} title="The allowlist was not changed" /> : null}
      </Stack>
    </Paper>
  );
}
