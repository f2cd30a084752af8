import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { isConflict, withEtag } from '../../app/etag';
import { formatDateTime, humanize } from '../../app/format';
import { useCompanyDepartments } from './agentQueries';
import type { Agent } from './agentText';

type Offboarding = Schemas['OffboardingRecord'];
type FireReason = Schemas['FireAgentRequest']['reason'];

const FIRE_REASONS: Array<{ value: FireReason; label: string }> = [
  { value: 'manual', label: 'Decision of management' },
  { value: 'performance', label: 'Performance' },
  { value: 'budget', label: 'Budget' },
  { value: 'project_completion', label: 'Project completed' },
];

interface Fields {
  name: string;
  department: string;
  provider: string;
  modelId: string;
  temperature: number | '';
  maxTokens: number | '';
  budget: number | '';
  status: 'active' | 'on_leave';
  reason: string;
}

function fieldsOf(agent: Agent): Fields {
  return {
    name: agent.name,
    department: agent.department,
    provider: agent.model?.provider ?? '',
    modelId: agent.model?.model_id ?? '',
    temperature: agent.model?.temperature ?? '',
    maxTokens: agent.model?.max_tokens ?? '',
    budget: agent.budget_limit_monthly ?? '',
    status: agent.status === 'on_leave' ? 'on_leave' : 'active',
    reason: '',
  };
}

/** Only what changed, as the PATCH body. */
export function changes(agent: Agent, f: Fields): Schemas['UpdateAgentRequest'] {
  const before = fieldsOf(agent);
  const body: Schemas['UpdateAgentRequest'] = {};
  if (f.name.trim() !== before.name) {
    body.name = f.name.trim();
  }
  if (f.department !== before.department) {
    body.department = f.department;
  }
  const model: Schemas['AgentModelUpdate'] = {};
  if (f.provider !== before.provider && f.provider) {
    model.provider = f.provider;
  }
  if (f.modelId !== before.modelId && f.modelId) {
    model.model_id = f.modelId;
  }
  if (f.temperature !== before.temperature && f.temperature !== '') {
    model.temperature = f.temperature;
  }
  if (f.maxTokens !== before.maxTokens && f.maxTokens !== '') {
    model.max_tokens = f.maxTokens;
  }
  if (Object.keys(model).length > 0) {
    body.model = model;
  }
  if (f.budget !== before.budget) {
    body.budget_limit_monthly = f.budget === '' ? null : f.budget;
  }
  if (f.status !== before.status && agent.status !== 'terminated' && agent.status !== 'onboarding') {
    body.status = f.status;
  }
  if (Object.keys(body).length > 0 && f.reason.trim()) {
    body.reason = f.reason.trim();
  }
  return body;
}

/**
 * Editing an agent: read with its version (ETag), send only what changed with If-Match, so an edit
 * someone else made meanwhile is reported as a conflict instead of being overwritten.
 */
export function EditAgentDialog({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const departments = useCompanyDepartments();
  const fresh = useQuery({
    queryKey: ['agents', 'edit', agent.name],
    queryFn: () => withEtag(api.GET('/api/v1/agents/{agent_name}', { params: { path: { agent_name: agent.name } } })),
    gcTime: 0,
    staleTime: 0,
  });
  const providers = useQuery({
    queryKey: ['providers', 'for-agents'],
    queryFn: () => unwrapPage(api.GET('/api/v1/providers', { params: { query: { offset: 0, limit: 200 } } })),
  });
  const [fields, setFields] = useState<Fields | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [conflict, setConflict] = useState(false);

  const base = fresh.data?.value;
  const f = fields ?? (base ? fieldsOf(base) : null);
  const set = (patch: Partial<Fields>) => f && setFields({ ...f, ...patch });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!f || !base || !fresh.data) {
      return;
    }
    const body = changes(base, f);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    setError(null);
    setConflict(false);
    try {
      const saved = await unwrap(
        api.PATCH('/api/v1/agents/{agent_name}', {
          params: {
            path: { agent_name: base.name },
            header: fresh.data.etag ? { 'If-Match': fresh.data.etag } : {},
          },
          body,
        }),
      );
      notifyDone(`${saved.name} was saved${body.model ? '; the model applies from the next task' : ''}`);
      await client.invalidateQueries({ queryKey: ['agents'] });
      onClose();
      if (saved.name !== agent.name) {
        await navigate(`/agents/${encodeURIComponent(saved.name)}`, { replace: true });
      }
    } catch (caught) {
      if (isConflict(caught) && (caught as { code?: number }).code === 4002) {
        setConflict(true);
      } else {
        setError(caught);
      }
    } finally {
      setBusy(false);
    }
  };

  const provider = providers.data?.items.find((p) => p.name === f?.provider);
  return (
    <Modal opened onClose={onClose} title={`Edit ${agent.name}`} size="lg">
      {fresh.error ? <ErrorNotice error={fresh.error} title="The agent could not be loaded" /> : null}
      {f && base ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Name" value={f.name} onChange={(e) => set({ name: e.currentTarget.value })} />
              <NativeSelect
                label="Department"
                value={f.department}
                onChange={(e) => set({ department: e.currentTarget.value })}
                data={[...new Set([base.department, ...(departments.data?.map((d) => d.name) ?? [])])].map((d) => ({
                  value: d,
                  label: humanize(d),
                }))}
              />
              <NativeSelect
                label="Provider"
                value={f.provider}
                onChange={(e) => set({ provider: e.currentTarget.value, modelId: '' })}
                data={[
                  { value: '', label: 'Not assigned', disabled: true },
                  ...[
                    ...new Set([
                      ...(f.provider ? [f.provider] : []),
                      ...(providers.data?.items.map((p) => p.name) ?? []),
                    ]),
                  ].map((p) => ({ value: p, label: p })),
                ]}
              />
              <NativeSelect
                label="Model"
                value={f.modelId}
                onChange={(e) => set({ modelId: e.currentTarget.value })}
                data={[
                  { value: '', label: 'Choose a model…', disabled: true },
                  ...[
                    ...new Set([...(f.modelId ? [f.modelId] : []), ...(provider?.models.map((m) => m.id) ?? [])]),
                  ].map((m) => ({ value: m, label: m })),
                ]}
              />
              <NumberInput
                label="Temperature"
                min={0}
                max={2}
                step={0.1}
                decimalScale={2}
                value={f.temperature}
                onChange={(v) => set({ temperature: typeof v === 'number' ? v : '' })}
              />
              <NumberInput
                label="Maximum tokens per answer"
                min={1}
                max={1_000_000}
                allowDecimal={false}
                value={f.maxTokens}
                onChange={(v) => set({ maxTokens: typeof v === 'number' ? v : '' })}
              />
              <NumberInput
                label="Monthly budget"
                description="Empty for no own limit"
                min={0}
                decimalScale={2}
                value={f.budget}
                onChange={(v) => set({ budget: typeof v === 'number' ? v : '' })}
              />
              {base.status === 'active' || base.status === 'on_leave' ? (
                <NativeSelect
                  label="Status"
                  value={f.status}
                  onChange={(e) => set({ status: e.currentTarget.value as Fields['status'] })}
                  data={[
                    { value: 'active', label: 'Active' },
                    { value: 'on_leave', label: 'On leave' },
                  ]}
                />
              ) : null}
            </SimpleGrid>
            <TextInput
              label="Reason"
              description="Optional; kept in the agent’s career history"
              value={f.reason}
              onChange={(e) => set({ reason: e.currentTarget.value })}
            />
            {conflict ? (
              <Alert color="orange" variant="light" role="alert" title="Changed by someone else">
                <Text size="sm">
                  {agent.name} was changed since you opened this form, so your edit was not saved. Load the current
                  version and make your change again.
                </Text>
                <Button
                  mt="xs"
                  size="xs"
                  variant="light"
                  onClick={() => {
                    setConflict(false);
                    setFields(null);
                    void fresh.refetch();
                  }}
                >
                  Load the current version
                </Button>
              </Alert>
            ) : null}
            {error ? <ErrorNotice error={error} title="The agent was not saved" /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      ) : fresh.error ? null : (
        <Text size="sm" role="status">
          Loading the agent…
        </Text>
      )}
    </Modal>
  );
}

/** Firing: a reason, a note, a confirmation; then the offboarding record the server returns. */
export function FireAgentDialog({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const client = useQueryClient();
  const [reason, setReason] = useState<FireReason>('manual');
  const [details, setDetails] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [record, setRecord] = useState<Offboarding | null>(null);

  const fire = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await unwrap(
        api.POST('/api/v1/agents/{agent_name}/fire', {
          params: { path: { agent_name: agent.name } },
          body: { reason, ...(details.trim() ? { details: details.trim() } : {}) },
        }),
      );
      setRecord(result);
      notifyDone(`${agent.name} was fired and offboarded`);
      await client.invalidateQueries({ queryKey: ['agents'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={record ? `${agent.name} was offboarded` : `Fire ${agent.name}?`} size="lg">
      {record ? (
        <Stack>
          <OffboardingSummary record={record} />
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            The agent stops working: its open tasks are reassigned, its memories archived and the team told. This cannot
            be undone.
          </Text>
          <NativeSelect
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value as FireReason)}
            data={FIRE_REASONS}
          />
          <Textarea
            label="Details"
            description="Optional; kept in the offboarding record"
            autosize
            minRows={2}
            value={details}
            onChange={(e) => setDetails(e.currentTarget.value)}
          />
          {error ? <ErrorNotice error={error} title={`${agent.name} was not fired`} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep {agent.name}
            </Button>
            <Button color="red" loading={busy} onClick={() => void fire()}>
              Fire {agent.name}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

const STEP_COLOR = { done: 'green', pending: 'yellow', skipped: 'gray' } as const;

export function OffboardingSummary({ record }: { record: Offboarding }) {
  return (
    <Stack gap="xs">
      <Text size="sm">
        Fired by {record.requested_by} for{' '}
        {FIRE_REASONS.find((r) => r.value === record.reason)?.label.toLowerCase() ?? record.reason}
        {record.details ? `: ${record.details}` : ''}. Started {formatDateTime(record.started_at)}
        {record.completed_at ? `, completed ${formatDateTime(record.completed_at)}` : ', not completed yet'}.
      </Text>
      <Text size="sm">
        {record.tasks_reassigned.length} {record.tasks_reassigned.length === 1 ? 'task' : 'tasks'} reassigned ·{' '}
        {record.org_memories_promoted} memories kept for the organization · team{' '}
        {record.team_notification_sent ? 'notified' : 'not notified'}
        {record.memory_archive_id ? ` · memory archive ${record.memory_archive_id}` : ''}
      </Text>
      <List spacing={4} size="sm" listStyleType="none" p={0}>
        {record.steps.map((step) => (
          <List.Item key={step.name}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Badge size="sm" variant="light" color={STEP_COLOR[step.state]}>
                {humanize(step.state)}
              </Badge>
              <Text size="sm">
                {humanize(step.name)}
                {step.detail ? ` — ${step.detail}` : ''}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** A former agent's offboarding record, on its profile. */
export function OffboardingPanel({ agent }: { agent: Agent }) {
  const record = useQuery({
    queryKey: ['agents', 'offboarding', agent.name],
    queryFn: () =>
      unwrap(api.GET('/api/v1/agents/{agent_name}/offboarding', { params: { path: { agent_name: agent.name } } })),
  });
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="offboarding-title">
      <Title order={2} size="h4" id="offboarding-title" mb="sm">
        Offboarding
      </Title>
      {record.error ? <ErrorNotice error={record.error} title="The offboarding record could not be loaded" /> : null}
      {record.data ? <OffboardingSummary record={record.data} /> : null}
      {!record.data && !record.error ? <Text size="sm">Loading…</Text> : null}
    </Paper>
  );
}
