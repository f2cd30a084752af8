import { Alert, Button, Divider, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';

import { unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { humanize } from '../../app/format';
import { setupStatusKey } from '../../app/session';
import { Loading } from '../../components/Loading';
import { setupAgentsKey } from './AgentsStep';
import { companyKey } from './CompanyStep';
import { fetchProviders, modelSummary, providersKey } from './ProviderChecks';

function Summary({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** Step 5: what the company starts with, and the one call that starts it. */
export function FinishStep({ onBack, onFinished }: { onBack: () => void; onFinished: () => void }) {
  const client = useQueryClient();
  const company = useQuery({ queryKey: companyKey, queryFn: () => unwrap(api.GET('/api/v1/company')) });
  const providers = useQuery({ queryKey: providersKey, queryFn: fetchProviders });
  const agents = useQuery({ queryKey: setupAgentsKey, queryFn: () => unwrap(api.GET('/api/v1/setup/agents')) });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const finish = async () => {
    setBusy(true);
    setError(null);
    try {
      await unwrap(api.POST('/api/v1/setup/complete'));
      notifyDone('Setup is complete: your company is ready');
      await client.invalidateQueries({ queryKey: setupStatusKey });
      onFinished();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const loadError = company.error ?? providers.error ?? agents.error;
  const withoutModel = agents.data?.agents.filter((agent) => !agent.model_id).length ?? 0;

  return (
    <Stack>
      <div>
        <Title order={2} size="h3">
          Check and finish
        </Title>
        <Text size="sm" c="dimmed">
          Finishing starts the company with what is shown here; afterwards you supervise it from the overview.
        </Text>
      </div>
      {loadError ? <ErrorNotice error={loadError} title="The summary could not be loaded" /> : null}
      {!loadError && (!company.data || !providers.data || !agents.data) ? (
        <Loading label="Loading the summary" />
      ) : null}
      {company.data && providers.data && agents.data ? (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <Summary title="Company">
            <Text fw={600}>{company.data.name}</Text>
            <Text size="sm" c="dimmed">
              {company.data.template_name ? `From the ${humanize(company.data.template_name)} template` : 'Blank'}
            </Text>
            <Text size="sm">
              {company.data.departments.length} {company.data.departments.length === 1 ? 'department' : 'departments'}
              {company.data.departments.length > 0
                ? `: ${company.data.departments.map((d) => humanize(d.name)).join(', ')}`
                : ''}
            </Text>
          </Summary>
          <Summary title="Providers">
            <List size="sm" spacing={4}>
              {providers.data.items.map((provider) => (
                <List.Item key={provider.name}>
                  <Text span fw={600} size="sm">
                    {provider.name}
                  </Text>{' '}
                  — {modelSummary(provider)}
                </List.Item>
              ))}
            </List>
          </Summary>
          <Summary title="Agents">
            <Text size="sm">
              {agents.data.agent_count} {agents.data.agent_count === 1 ? 'agent' : 'agents'}
            </Text>
            {agents.data.agents.length > 0 ? (
              <Text size="sm" c="dimmed">
                {agents.data.agents
                  .slice(0, 6)
                  .map((agent) => agent.name)
                  .join(', ')}
                {agents.data.agents.length > 6 ? ' …' : ''}
              </Text>
            ) : null}
          </Summary>
        </SimpleGrid>
      ) : null}
      {withoutModel > 0 ? (
        <Alert
          color="yellow"
          variant="light"
          role="note"
          title={`${withoutModel} ${withoutModel === 1 ? 'agent has' : 'agents have'} no model`}
        >
          They cannot work until they get one. Go back to the Agents step to choose their model.
        </Alert>
      ) : null}
      {error ? <ErrorNotice error={error} title="Setup could not finish" /> : null}
      <Divider />
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Button onClick={() => void finish()} loading={busy}>
          Finish setup
        </Button>
      </Group>
    </Stack>
  );
}
