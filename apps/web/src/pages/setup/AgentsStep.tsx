import { Alert, Button, Divider, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyError } from '../../app/errors';
import { humanize } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { fetchProviders, type Provider, providersKey } from './ProviderChecks';

type Agent = Schemas['SetupAgentSummary'];

export const setupAgentsKey = ['agents', 'setup-roster'] as const;

/** Provider names never contain ':', so the first '::' separates the provider from the model id. */
const SEPARATOR = '::';

function modelValue(provider: string, id: string): string {
  return `${provider}${SEPARATOR}${id}`;
}

function parseModelValue(value: string): { model_provider: string; model_id: string } | null {
  const at = value.indexOf(SEPARATOR);
  return at > 0 ? { model_provider: value.slice(0, at), model_id: value.slice(at + SEPARATOR.length) } : null;
}

/** Every model of every provider, grouped by provider, as choices. */
function modelChoices(providers: Provider[]) {
  return providers
    .filter((p) => p.models.length > 0)
    .map((p) => ({
      group: p.name,
      items: p.models.map((m) => ({
        value: modelValue(p.name, m.id),
        label: m.alias && m.alias !== m.id ? `${m.alias} (${m.id})` : m.id,
      })),
    }));
}

function RenameForm({ agent, index, onClose }: { agent: Agent; index: number; onClose: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState(agent.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || name.trim() === agent.name) {
      onClose();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await unwrap(
        api.PUT('/api/v1/setup/agents/{agent_index}/name', {
          params: { path: { agent_index: index } },
          body: { name: name.trim() },
        }),
      );
      await client.invalidateQueries({ queryKey: ['agents'] });
      onClose();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <Stack gap={6}>
        <TextInput
          aria-label={`New name for ${agent.name}`}
          size="xs"
          maxLength={128}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
          autoFocus
        />
        <Group gap={6}>
          <Button type="submit" size="xs" loading={busy}>
            Save name
          </Button>
          <Button size="xs" variant="subtle" onClick={onClose}>
            Cancel
          </Button>
        </Group>
        {error ? <ErrorNotice error={error} title="The name was not changed" /> : null}
      </Stack>
    </form>
  );
}

function AgentRow({ agent, index, providers }: { agent: Agent; index: number; providers: Provider[] }) {
  const client = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [busy, setBusy] = useState<'model' | 'random' | null>(null);

  const setModel = async (value: string) => {
    const model = parseModelValue(value);
    if (!model) {
      return;
    }
    setBusy('model');
    try {
      await unwrap(
        api.PUT('/api/v1/setup/agents/{agent_index}/model', {
          params: { path: { agent_index: index } },
          body: model,
        }),
      );
      await client.invalidateQueries({ queryKey: ['agents'] });
    } catch (error) {
      notifyError(error, `The model of ${agent.name} was not changed`);
    } finally {
      setBusy(null);
    }
  };

  const randomName = async () => {
    setBusy('random');
    try {
      await unwrap(
        api.POST('/api/v1/setup/agents/{agent_index}/randomize-name', { params: { path: { agent_index: index } } }),
      );
      await client.invalidateQueries({ queryKey: ['agents'] });
    } catch (error) {
      notifyError(error, `${agent.name} was not renamed`);
    } finally {
      setBusy(null);
    }
  };

  const current = agent.model_provider && agent.model_id ? modelValue(agent.model_provider, agent.model_id) : '';
  const choices = modelChoices(providers);
  const known = choices.some((group) => group.items.some((item) => item.value === current));

  return (
    <Table.Tr>
      <Table.Td>
        {renaming ? (
          <RenameForm agent={agent} index={index} onClose={() => setRenaming(false)} />
        ) : (
          <Text size="sm" fw={600}>
            {agent.name}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{agent.role}</Text>
        {agent.personality_preset ? (
          <Text size="xs" c="dimmed">
            {humanize(agent.personality_preset)}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{humanize(agent.department)}</Table.Td>
      <Table.Td>{humanize(agent.level)}</Table.Td>
      <Table.Td miw={220}>
        <NativeSelect
          aria-label={`Model for ${agent.name}`}
          size="xs"
          value={current}
          disabled={busy === 'model'}
          onChange={(e) => void setModel(e.currentTarget.value)}
          description={`Suggested size: ${agent.tier}`}
          inputWrapperOrder={['input', 'description']}
          data={[
            ...(current && !known ? [{ value: current, label: `${agent.model_id} (${agent.model_provider})` }] : []),
            ...(current ? [] : [{ value: '', label: 'No model yet', disabled: true }]),
            ...choices,
          ]}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => setRenaming(true)} aria-label={`Rename ${agent.name}`}>
            Rename
          </Button>
          <Button
            size="xs"
            variant="subtle"
            loading={busy === 'random'}
            onClick={() => void randomName()}
            aria-label={`Give ${agent.name} a random name`}
          >
            Random name
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Gives one model to every agent that has none yet (agents hired before any provider existed). */
function AssignMissingModels({ agents, providers }: { agents: Agent[]; providers: Provider[] }) {
  const client = useQueryClient();
  const choices = modelChoices(providers);
  const first = choices[0]?.items[0]?.value ?? '';
  const [value, setValue] = useState(first);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const missing = agents.map((agent, index) => ({ agent, index })).filter(({ agent }) => !agent.model_id);

  if (missing.length === 0) {
    return null;
  }

  const assign = async () => {
    const model = parseModelValue(value || first);
    if (!model) {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      for (const { index } of missing) {
        await unwrap(
          api.PUT('/api/v1/setup/agents/{agent_index}/model', {
            params: { path: { agent_index: index } },
            body: model,
          }),
        );
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
      await client.invalidateQueries({ queryKey: ['agents'] });
    }
  };

  return (
    <Alert
      color="yellow"
      variant="light"
      role="note"
      title={`${missing.length} of ${agents.length} agents have no model yet`}
    >
      <Stack gap="xs">
        <Text size="sm">
          An agent without a model cannot work. Choose a model for them here, or one by one in the table.
        </Text>
        {choices.length === 0 ? (
          <Text size="sm">The providers have no models yet: go back and use Discover models on a provider.</Text>
        ) : (
          <Group align="flex-end" gap="xs">
            <NativeSelect
              label="Model for agents without one"
              value={value || first}
              onChange={(e) => setValue(e.currentTarget.value)}
              data={choices}
              miw={260}
            />
            <Button loading={busy} onClick={() => void assign()}>
              Assign to {missing.length} {missing.length === 1 ? 'agent' : 'agents'}
            </Button>
          </Group>
        )}
        {error ? <ErrorNotice error={error} title="Not every agent got the model" /> : null}
      </Stack>
    </Alert>
  );
}

/** Step 4: the team the template hired: names and models, changeable before the company starts. */
export function AgentsStep({ onBack, onNext }: { onBack: () => void; onNext: () => void }) {
  const agents = useQuery({
    queryKey: setupAgentsKey,
    queryFn: () => unwrap(api.GET('/api/v1/setup/agents')),
  });
  const providers = useQuery({ queryKey: providersKey, queryFn: fetchProviders });

  const navigation = (
    <Group justify="space-between">
      <Button variant="default" onClick={onBack}>
        Back
      </Button>
      <Button onClick={onNext}>Next: finish</Button>
    </Group>
  );

  let body;
  if (agents.error || providers.error) {
    body = <ErrorNotice error={agents.error ?? providers.error} title="The team could not be loaded" />;
  } else if (!agents.data || !providers.data) {
    body = <Loading label="Loading the team" />;
  } else if (agents.data.agents.length === 0) {
    body = (
      <Empty title="No agents yet">
        A blank company starts without agents. Go back to the company step and choose a template to hire a team, or
        finish now and hire agents later.
      </Empty>
    );
  } else {
    body = (
      <Stack>
        <AssignMissingModels agents={agents.data.agents} providers={providers.data.items} />
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Caption>
              {agents.data.agent_count} {agents.data.agent_count === 1 ? 'agent' : 'agents'}, in the order they were
              hired
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Role</Table.Th>
                <Table.Th scope="col">Department</Table.Th>
                <Table.Th scope="col">Level</Table.Th>
                <Table.Th scope="col">Model</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {agents.data.agents.map((agent, index) => (
                <AgentRow key={`${index}-${agent.name}`} agent={agent} index={index} providers={providers.data.items} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    );
  }

  return (
    <Stack>
      <div>
        <Title order={2} size="h3">
          Review your agents
        </Title>
        <Text size="sm" c="dimmed">
          Rename anyone and choose the model each agent thinks with.
        </Text>
      </div>
      {body}
      <Divider />
      {navigation}
    </Stack>
  );
}
