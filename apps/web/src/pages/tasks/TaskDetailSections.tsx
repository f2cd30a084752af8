import { Anchor, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { type Schemas, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime, formatMoney, humanize, relativeTime } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { agentName, type Task, useAgents } from './taskModel';

type ActivityEvent = Schemas['ActivityEvent'];

/** One part of the task page: a region named by its heading. */
export function Section({
  title,
  id,
  children,
  aside,
}: {
  title: string;
  id: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {aside}
      </Group>
      {children}
    </Paper>
  );
}

/** A moment, in the person's locale, with how long ago it was on hover. */
export function Moment({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={relativeTime(iso)}>
      {formatDateTime(iso)}
    </time>
  );
}

const EVENT_LABELS: Partial<Record<ActivityEvent['event_type'], string>> = {
  task_started: 'Run started',
  task_completed: 'Run finished',
  cost_incurred: 'Model call',
  tool_used: 'Tool call',
  delegation_sent: 'Delegated',
  delegation_received: 'Delegation received',
};

/**
 * The task's runs, model calls and tool calls: the assignee's activity (its latest 200 events)
 * that names this task, oldest first.
 */
export function RunsSection({ task }: { task: Task }) {
  const assignee = task.assigned_to;
  const runs = useQuery({
    queryKey: ['tasks', 'detail', task.id, 'runs', assignee],
    queryFn: async () => {
      const page = await unwrapPage(
        api.GET('/api/v1/agents/{agent_name}/activity', {
          params: { path: { agent_name: assignee ?? '' }, query: { limit: 200 } },
        }),
      );
      return page.items.filter((event) => event.related_ids.task_id === task.id).reverse();
    },
    enabled: Boolean(assignee),
  });

  let body: ReactNode;
  if (!assignee) {
    body = <Empty title="No runs yet">A run starts when the task is assigned to an agent.</Empty>;
  } else if (runs.error) {
    body = <ErrorNotice error={runs.error} title="The runs could not be loaded" />;
  } else if (!runs.data) {
    body = <Loading label="Loading runs" />;
  } else if (runs.data.length === 0) {
    body = (
      <Empty title="No runs yet">
        {assignee} has not run this task yet; its runs, model calls and tool calls appear here as they happen.
      </Empty>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={560}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">Detail</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.data.map((event, i) => (
              <Table.Tr key={`${event.timestamp}-${i}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Moment iso={event.timestamp} />
                </Table.Td>
                <Table.Td>{EVENT_LABELS[event.event_type] ?? humanize(event.event_type)}</Table.Td>
                <Table.Td>{event.description}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  return (
    <Section title="Runs, model calls and tool calls" id="task-runs">
      {body}
    </Section>
  );
}

interface TaskCosts {
  records: Array<Schemas['CostRecord']>;
  total: number;
  currency: string;
  summary: Schemas['PeriodSummary'] | null;
}

export function useTaskCosts(taskId: string) {
  return useQuery({
    queryKey: ['budget', 'records', 'task', taskId],
    queryFn: async (): Promise<TaskCosts> => {
      const result = await api.GET('/api/v1/budget/records', { params: { query: { task_id: taskId, limit: 200 } } });
      const page = await unwrapPage(Promise.resolve(result));
      return {
        records: page.items,
        total: page.total,
        currency: result.data?.currency ?? 'USD',
        summary: result.data?.period_summary ?? null,
      };
    },
  });
}

export function CostSection({ costs }: { costs: ReturnType<typeof useTaskCosts> }) {
  const agents = useAgents();
  let body: ReactNode;
  let aside: ReactNode = null;
  if (costs.error) {
    body = <ErrorNotice error={costs.error} title="The cost records could not be loaded" />;
  } else if (!costs.data) {
    body = <Loading label="Loading costs" />;
  } else if (costs.data.total === 0) {
    body = <Empty title="Nothing spent yet">Each model call made for this task is recorded here with its cost.</Empty>;
  } else {
    const { records, currency, summary, total } = costs.data;
    aside = summary ? (
      <Text size="sm" fw={600}>
        {formatMoney(summary.total_cost_usd, currency)} over {summary.record_count} call
        {summary.record_count === 1 ? '' : 's'}
      </Text>
    ) : null;
    body = (
      <>
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">When</Table.Th>
                <Table.Th scope="col">Agent</Table.Th>
                <Table.Th scope="col">Model</Table.Th>
                <Table.Th scope="col">Kind</Table.Th>
                <Table.Th scope="col" ta="right">
                  Tokens in / out
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Cost
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((record, i) => (
                <Table.Tr key={`${record.timestamp}-${i}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Moment iso={record.timestamp} />
                  </Table.Td>
                  <Table.Td>{agentName(agents.data?.items, record.agent_id)}</Table.Td>
                  <Table.Td>
                    {record.provider} / {record.model}
                  </Table.Td>
                  <Table.Td>{humanize(record.call_category)}</Table.Td>
                  <Table.Td ta="right">
                    {record.input_tokens.toLocaleString()} / {record.output_tokens.toLocaleString()}
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(record.cost_usd, currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {total > records.length ? (
          <Text size="xs" c="dimmed" mt="xs">
            The newest {records.length} of {total} calls; the total above counts them all.
          </Text>
        ) : null}
      </>
    );
  }
  return (
    <Section title="Cost trail" id="task-costs" aside={aside}>
      {body}
    </Section>
  );
}

function formatBytes(size: number): string {
  if (size < 1024) {
    return `${size} B`;
  }
  if (size < 1024 * 1024) {
    return `${(size / 1024).toFixed(1)} KB`;
  }
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

export function ArtifactsSection({ taskId }: { taskId: string }) {
  const artifacts = useQuery({
    queryKey: ['artifacts', 'task', taskId],
    queryFn: () => unwrapPage(api.GET('/api/v1/artifacts', { params: { query: { task_id: taskId, limit: 200 } } })),
  });
  let body: ReactNode;
  if (artifacts.error) {
    body = <ErrorNotice error={artifacts.error} title="The artifacts could not be loaded" />;
  } else if (!artifacts.data) {
    body = <Loading label="Loading artifacts" />;
  } else if (artifacts.data.total === 0) {
    body = (
      <Empty title="No artifacts yet">
        Code, tests and documentation the agents produce for this task appear here.
      </Empty>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Path</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Made by</Table.Th>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col" ta="right">
                Size
              </Table.Th>
              <Table.Th scope="col">Content</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {artifacts.data.items.map((artifact) => (
              <Table.Tr key={artifact.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {artifact.path}
                  {artifact.description ? (
                    <Text size="xs" c="dimmed">
                      {artifact.description}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{humanize(artifact.type)}</Table.Td>
                <Table.Td>{artifact.created_by}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Moment iso={artifact.created_at} />
                </Table.Td>
                <Table.Td ta="right">{formatBytes(artifact.size_bytes)}</Table.Td>
                <Table.Td>
                  {artifact.size_bytes > 0 || artifact.sha256 ? (
                    <Anchor
                      href={`/api/v1/artifacts/${encodeURIComponent(artifact.id)}/content`}
                      download
                      size="sm"
                      aria-label={`Download ${artifact.path}`}
                    >
                      Download
                    </Anchor>
                  ) : (
                    <Text span size="sm" c="dimmed">
                      Not uploaded yet
                    </Text>
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
    <Section title="Artifacts" id="task-artifacts">
      {body}
    </Section>
  );
}

/** The pending approvals filed for this task (among the oldest 200 pending). */
export function ApprovalsSection({ taskId }: { taskId: string }) {
  const approvals = useQuery({
    queryKey: ['approvals', 'pending', 'task', taskId],
    queryFn: async () => {
      const page = await unwrapPage(
        api.GET('/api/v1/approvals', { params: { query: { status: 'pending', limit: 200 } } }),
      );
      return page.items.filter((approval) => approval.task_id === taskId);
    },
  });
  let body: ReactNode;
  if (approvals.error) {
    body = <ErrorNotice error={approvals.error} title="The approvals could not be loaded" />;
  } else if (!approvals.data) {
    body = <Loading label="Loading approvals" />;
  } else if (approvals.data.length === 0) {
    body = (
      <Empty title="Not waiting on an approval">
        When an agent asks for a decision before a risky step of this task, it is listed here.
      </Empty>
    );
  } else {
    body = (
      <Stack gap="xs">
        {approvals.data.map((approval) => (
          <Paper key={approval.id} withBorder p="sm" bg="yellow.0">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {approval.title}
                </Text>
                <Text size="xs">
                  {humanize(approval.action_type)} · {humanize(approval.risk_level)} risk · requested by{' '}
                  {approval.requested_by}
                  {approval.expires_at ? ` · expires ${relativeTime(approval.expires_at)}` : ''}
                </Text>
              </Stack>
              <Anchor component={Link} to="/approvals" size="sm">
                Decide in Approvals
              </Anchor>
            </Group>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Section title="Waiting on approval" id="task-approvals">
      {body}
    </Section>
  );
}
