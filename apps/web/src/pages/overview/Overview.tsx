import { Anchor, Box, Card, Grid, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDate, formatMoney } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { RiskBadge, TimeLeft } from '../approvals/ApprovalCard';
import { approvalKeys, byUrgency, countApprovals, fetchApprovals } from '../approvals/queries';
import { ActivityFeed } from './ActivityFeed';
import { SpendSparkline } from './SpendSparkline';

type Metrics = Schemas['OverviewMetrics'];
type Forecast = Schemas['ForecastResponse'];
type TaskCounts = NonNullable<Metrics['tasks_by_status']>;
type TaskStatus = keyof TaskCounts;

/** The overview's own figures; every live event refreshes them. */
export const overviewKeys = {
  metrics: ['overview', 'metrics'] as const,
  forecast: ['overview', 'forecast'] as const,
  held: ['overview', 'held'] as const,
};

/** Tasks looked at per status for a hold: the first page each of blocked and in-progress work. */
const HELD_SCAN = 100;
const HELD_PREFIX = 'budget_exhausted:';

type Task = Schemas['Task'];

/** "budget_exhausted: monthly limit [4051] …" → "monthly"; null when a spend limit does not hold it. */
export function heldLimit(reason: string | null): string | null {
  if (!reason?.startsWith(HELD_PREFIX)) {
    return null;
  }
  const match = /^\s*(\S+) limit/.exec(reason.slice(HELD_PREFIX.length));
  return match ? match[1] : 'spend';
}

const LIMIT_LABEL: Record<string, string> = {
  monthly: 'the monthly budget',
  department: 'its department’s budget',
  agent_daily: 'its agent’s daily limit',
  task: 'its own budget',
};

async function fetchHeld(): Promise<{ tasks: Task[]; partial: boolean }> {
  const pages = await Promise.all(
    (['blocked', 'in_progress'] as const).map((status) =>
      unwrapPage(api.GET('/api/v1/tasks', { params: { query: { status, offset: 0, limit: HELD_SCAN } } })),
    ),
  );
  return {
    tasks: pages.flatMap((p) => p.items).filter((t) => heldLimit(t.status_reason) !== null),
    partial: pages.some((p) => p.total > p.items.length),
  };
}

/** Work a spend limit holds: it resumes on its own when the limit lifts (a new period, a raised limit). */
function HeldPanel() {
  const held = useQuery({ queryKey: overviewKeys.held, queryFn: fetchHeld });
  if (held.error) {
    return (
      <Panel title="Held by a budget limit">
        <ErrorNotice error={held.error} title="The held tasks could not be loaded" />
      </Panel>
    );
  }
  if (!held.data || held.data.tasks.length === 0) {
    return null;
  }
  return (
    <Panel title="Held by a budget limit" more={{ to: '/budget', label: 'Open the budget' }}>
      <Text size="sm" c="gray.7" mb="xs">
        These tasks resume on their own once the limit lifts: a new period, a raised limit or spend released.
        {held.data.partial ? ' Only the first blocked and in-progress tasks were looked at.' : ''}
      </Text>
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Held by a budget limit">
        {held.data.tasks.map((task) => {
          const limit = heldLimit(task.status_reason) ?? 'spend';
          return (
            <li key={task.id}>
              <Anchor component={Link} to={`/tasks/${task.id}`} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {task.title}
              </Anchor>
              <Text size="xs" c="gray.7">
                held by {LIMIT_LABEL[limit] ?? `the ${limit} limit`}
                {task.assigned_to ? ` · ${task.assigned_to}` : ''}
              </Text>
            </li>
          );
        })}
      </Stack>
    </Panel>
  );
}

/** Statuses in the order work moves through them; colours only mark the bar, the words carry it. */
const TASK_STATUSES: Array<{ status: TaskStatus; label: string; color: string }> = [
  { status: 'created', label: 'Created', color: 'gray.5' },
  { status: 'assigned', label: 'Assigned', color: 'cyan.6' },
  { status: 'in_progress', label: 'In progress', color: 'blue.7' },
  { status: 'in_review', label: 'In review', color: 'violet.6' },
  { status: 'completed', label: 'Completed', color: 'teal.7' },
  { status: 'blocked', label: 'Blocked', color: 'orange.6' },
  { status: 'interrupted', label: 'Interrupted', color: 'yellow.6' },
  { status: 'failed', label: 'Failed', color: 'red.7' },
  { status: 'cancelled', label: 'Cancelled', color: 'dark.3' },
];

interface PanelProps {
  title: string;
  children: ReactNode;
  /** A link to the page that tells more, at the foot of the panel. */
  more?: { to: string; label: string };
  /** Stretch to the row's height (the figures in a row line up). */
  fill?: boolean;
}

function Panel({ title, children, more, fill = false }: PanelProps) {
  return (
    <Card withBorder padding="md" radius="md" h={fill ? '100%' : undefined} component="section" aria-label={title}>
      <Title order={2} size="h5" c="gray.7" fw={600} mb="xs">
        {title}
      </Title>
      {children}
      {more ? (
        <Anchor component={Link} to={more.to} size="sm" mt="auto" pt="sm">
          {more.label}
        </Anchor>
      ) : null}
    </Card>
  );
}

function Figure({ children }: { children: ReactNode }) {
  return (
    <Text fz={28} fw={700} lh={1.2}>
      {children}
    </Text>
  );
}

function SpendPanel({ metrics }: { metrics: Metrics }) {
  const week = metrics.cost_7d_trend.reduce((sum, point) => sum + point.value, 0);
  return (
    <Panel title="Spend, last 7 days" fill>
      <Figure>{formatMoney(week, metrics.currency)}</Figure>
      <SpendSparkline points={metrics.cost_7d_trend} currency={metrics.currency} />
      <Text size="sm" c="gray.7" mt={4}>
        {week > 0
          ? `${formatMoney(metrics.total_cost_usd, metrics.currency)} since the start`
          : 'Nothing spent this week'}
      </Text>
    </Panel>
  );
}

/** When the budget runs out at the current rate, in words. */
function exhaustion(metrics: Metrics, forecast: Forecast | undefined): string {
  if (!forecast) {
    return '';
  }
  const days = forecast.days_until_exhausted;
  if (days === null) {
    return forecast.avg_daily_spend_usd > 0 ? 'Not on course to run out' : 'No spend yet to project from';
  }
  if (days <= 0 || metrics.budget_remaining_usd <= 0) {
    return 'The budget for this period is spent';
  }
  const date = new Date(Date.now() + days * 86_400_000).toISOString();
  return `Runs out in ${days} ${days === 1 ? 'day' : 'days'} (${formatDate(date)}) at ${formatMoney(
    forecast.avg_daily_spend_usd,
    forecast.currency,
  )} a day`;
}

function BudgetPanel({ metrics }: { metrics: Metrics }) {
  const forecast = useQuery({
    queryKey: overviewKeys.forecast,
    queryFn: () => unwrap(api.GET('/api/v1/analytics/forecast')),
  });
  const used = metrics.budget_used_percent;
  const noBudget = used === 0 && metrics.budget_remaining_usd === 0;
  const color = used >= 100 ? 'red.9' : used >= 80 ? 'orange.7' : 'indigo.8';
  return (
    <Panel title="Budget this period" more={{ to: '/budget', label: 'Spending details' }} fill>
      {noBudget ? (
        <>
          <Figure>No budget</Figure>
          <Text size="sm" c="gray.7" mt="xs">
            No monthly budget is set; spend is recorded without a limit.
          </Text>
        </>
      ) : (
        <>
          <Figure>{Math.round(used)}% used</Figure>
          <Progress
            value={Math.min(100, used)}
            color={color}
            size="md"
            mt="xs"
            mb={6}
            aria-label={`Budget used this period: ${Math.round(used)}%`}
          />
          <Text size="sm">{formatMoney(metrics.budget_remaining_usd, metrics.currency)} left</Text>
          <Text size="sm" c="gray.7">
            {forecast.error ? 'The forecast could not be loaded' : exhaustion(metrics, forecast.data)}
          </Text>
        </>
      )}
    </Panel>
  );
}

function AgentsPanel({ metrics }: { metrics: Metrics }) {
  return (
    <Panel title="Agents" more={{ to: '/agents', label: 'See the agents' }} fill>
      <Figure>{metrics.total_agents}</Figure>
      {metrics.total_agents === 0 ? (
        <Text size="sm" c="gray.7" mt="xs">
          No agents yet. Hire them on the Agents page.
        </Text>
      ) : (
        <Stack gap={2} mt="xs">
          <Text size="sm">{metrics.active_agents_count} working on a task</Text>
          <Text size="sm" c="gray.7">
            {metrics.idle_agents_count} idle
          </Text>
        </Stack>
      )}
    </Panel>
  );
}

function ApprovalsPanel() {
  const pending = useQuery({ queryKey: approvalKeys.count('pending'), queryFn: () => countApprovals('pending') });
  return (
    <Panel title="Pending approvals" more={{ to: '/approvals', label: 'Review the approvals' }} fill>
      {pending.error ? (
        <ErrorNotice error={pending.error} title="Could not count the approvals" />
      ) : (
        <>
          <Figure>{pending.data ?? '…'}</Figure>
          <Text size="sm" c={pending.data ? undefined : 'gray.7'} mt="xs">
            {pending.data === undefined
              ? 'Counting'
              : pending.data === 0
                ? 'Nothing waits for a decision'
                : `${pending.data === 1 ? 'An action waits' : 'Actions wait'} for a person's decision`}
          </Text>
        </>
      )}
    </Panel>
  );
}

const WAITING = { status: 'pending', risk: null, page: 0, limit: 5 } as const;

/** The few requests that wait longest, most pressing first: what a person may want to decide now. */
function WaitingPanel() {
  const waiting = useQuery({ queryKey: approvalKeys.list(WAITING), queryFn: () => fetchApprovals(WAITING) });
  const now = Date.now();
  return (
    <Panel title="Waiting for a decision" more={{ to: '/approvals', label: 'All pending approvals' }}>
      {waiting.error ? (
        <ErrorNotice error={waiting.error} title="The approvals could not be loaded" />
      ) : !waiting.data ? (
        <Loading label="Loading approvals" />
      ) : waiting.data.items.length === 0 ? (
        <Text size="sm" c="gray.7">
          Nothing waits. When an agent asks to take an action its autonomy does not cover, it appears here.
        </Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Waiting for a decision">
          {[...waiting.data.items].sort(byUrgency(now)).map((item) => (
            <li key={item.id}>
              <Anchor component={Link} to="/approvals" size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {item.title}
              </Anchor>
              <Group gap={6} mt={4}>
                <TimeLeft item={item} now={now} />
                <RiskBadge risk={item.risk_level} />
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Panel>
  );
}

function TasksPanel({ metrics }: { metrics: Metrics }) {
  const given: Partial<TaskCounts> = metrics.tasks_by_status ?? {};
  const counts = Object.fromEntries(TASK_STATUSES.map(({ status }) => [status, given[status] ?? 0])) as TaskCounts;
  const total = metrics.total_tasks;
  return (
    <Panel title="Tasks by status" more={{ to: '/tasks', label: 'Open the task board' }}>
      {total === 0 ? (
        <Empty title="No tasks yet">Tasks created on the Tasks page, or handed out by agents, are counted here.</Empty>
      ) : (
        <>
          <Text size="sm" mb="xs">
            {total} {total === 1 ? 'task' : 'tasks'} in all
          </Text>
          <Box aria-hidden>
            <Progress.Root size={14} mb="md">
              {TASK_STATUSES.filter(({ status }) => counts[status] > 0).map(({ status, color }) => (
                <Progress.Section key={status} value={(counts[status] / total) * 100} color={color} />
              ))}
            </Progress.Root>
          </Box>
          <SimpleGrid component="dl" cols={{ base: 2, sm: 3 }} spacing="xs" verticalSpacing={6} m={0}>
            {TASK_STATUSES.map(({ status, label, color }) => (
              <Group key={status} gap={8} wrap="nowrap">
                <Text component="dt" size="sm" c={counts[status] ? undefined : 'gray.7'}>
                  <Box
                    component="span"
                    display="inline-block"
                    w={10}
                    h={10}
                    mr={8}
                    bg={color}
                    style={{ borderRadius: 2 }}
                    aria-hidden
                  />
                  {label}
                </Text>
                <Text component="dd" size="sm" fw={600} m={0} ml="auto" c={counts[status] ? undefined : 'gray.7'}>
                  {counts[status]}
                </Text>
              </Group>
            ))}
          </SimpleGrid>
        </>
      )}
    </Panel>
  );
}

/** The company at a glance: spend, budget, staff, approvals, work and what just happened. */
export default function Overview() {
  const metrics = useQuery({
    queryKey: overviewKeys.metrics,
    queryFn: () => unwrap(api.GET('/api/v1/analytics/overview')),
  });

  return (
    <>
      <PageHeader
        title="Overview"
        description={
          <Text span inherit c="gray.7">
            Spend, staff, work and decisions of the company, as they happen.
          </Text>
        }
      />
      {metrics.error ? (
        <ErrorNotice error={metrics.error} title="The overview could not be loaded" />
      ) : !metrics.data ? (
        <Loading label="Loading the overview" />
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
            <SpendPanel metrics={metrics.data} />
            <BudgetPanel metrics={metrics.data} />
            <AgentsPanel metrics={metrics.data} />
            <ApprovalsPanel />
          </SimpleGrid>
          <Grid gap="md" align="flex-start">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Stack gap="md">
                <TasksPanel metrics={metrics.data} />
                <WaitingPanel />
                <HeldPanel />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Panel title="Recent activity">
                <ActivityFeed />
              </Panel>
            </Grid.Col>
          </Grid>
        </Stack>
      )}
    </>
  );
}
