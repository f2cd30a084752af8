import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';

import { ApiError, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDate, formatDateTime, formatMoney, humanize, relativeTime } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { CostRecords } from '../budget/CostRecords';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { EditAgentDialog, FireAgentDialog, OffboardingPanel } from './AgentActions';
import { MemoriesPanel } from './AgentMemories';
import { LevelEvaluationPanel, OnboardingPanel } from './AgentWorkforce';
import { AutonomyPanel, TrustPanel } from './AgentAutonomy';
import { useBudgetConfig } from './agentQueries';
import { type Agent, autonomyLabel, departmentLabel, levelLabel, STATUS_COLOR } from './agentText';
import { ListPager } from '../../components/ListPager';

const PerformanceChart = lazy(() => import('../budget/SpendCharts').then((m) => ({ default: m.PerformanceChart })));

const TABS = ['performance', 'activity', 'career', 'autonomy', 'spend', 'memories'] as const;
type Tab = (typeof TABS)[number];
const ACTIVITY_PAGE = 20;

const TREND_COLOR: Record<string, string> = {
  improving: 'teal',
  stable: 'blue',
  declining: 'red',
  insufficient_data: 'gray',
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} fw={500}>
        {children}
      </Text>
    </div>
  );
}

function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}

/** 95 → "1 min 35 s". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) {
    return '—';
  }
  const s = Math.round(seconds);
  if (s < 60) {
    return `${s} s`;
  }
  const m = Math.floor(s / 60);
  if (m < 60) {
    return `${m} min ${s % 60} s`;
  }
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const score = (value: number | null | undefined, of: number) =>
  value === null || value === undefined ? '—' : `${Math.round(value * 10) / 10} / ${of}`;
const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${Math.round(value * 10) / 10}%`;

function Profile({ agent, currency }: { agent: Agent; currency: string | undefined }) {
  const model = agent.model;
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="profile-title">
      <Title order={2} size="h4" id="profile-title" mb="sm">
        Profile
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} component="dl" m={0} spacing="md" verticalSpacing="sm">
        <Fact label="Status">
          <Badge variant="dot" color={STATUS_COLOR[agent.status] ?? 'gray'}>
            {humanize(agent.status)}
          </Badge>
        </Fact>
        <Fact label="Role">{agent.role}</Fact>
        <Fact label="Department">{departmentLabel(agent.department)}</Fact>
        <Fact label="Level">{levelLabel(agent.level)}</Fact>
        <Fact label="Hired">{formatDate(agent.hiring_date)}</Fact>
        <Fact label="Model">
          {model?.model_id ? `${model.model_id}${model.provider ? ` (${model.provider})` : ''}` : 'Not assigned'}
        </Fact>
        <Fact label="Model tier">{humanize(agent.tier)}</Fact>
        <Fact label="Personality">{agent.personality_preset ? humanize(agent.personality_preset) : 'Custom'}</Fact>
        <Fact label="Autonomy">{autonomyLabel(agent.autonomy_level)}</Fact>
        <Fact label="Monthly budget">
          {agent.budget_limit_monthly === null || agent.budget_limit_monthly === undefined
            ? 'No own limit'
            : formatMoney(agent.budget_limit_monthly, currency)}
        </Fact>
      </SimpleGrid>
    </Paper>
  );
}

function PerformancePanel({ agent, currency }: { agent: Agent; currency: string | undefined }) {
  const performance = useQuery({
    queryKey: ['agents', 'detail', agent.name, 'performance'],
    queryFn: () =>
      unwrap(api.GET('/api/v1/agents/{agent_name}/performance', { params: { path: { agent_name: agent.name } } })),
  });
  if (performance.error) {
    return <ErrorNotice error={performance.error} title="The performance could not be loaded" />;
  }
  if (!performance.data) {
    return <Loading label="Loading the performance" />;
  }
  const p = performance.data;
  const windows = p.windows ?? [];
  const ran = p.tasks_completed_total > 0 || windows.some((w) => w.tasks_completed + w.tasks_failed > 0);
  if (!ran) {
    return (
      <Empty title="No task runs recorded yet">
        Performance appears once {agent.name} works on tasks: completions, success rate, quality and cost per task over
        the last 7, 30 and 90 days.
      </Empty>
    );
  }
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text size="sm">Overall trend:</Text>
        <Badge variant="dot" color={TREND_COLOR[p.trend_direction] ?? 'gray'}>
          {humanize(p.trend_direction)}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Stat
          label="Tasks completed"
          value={p.tasks_completed_total}
          hint={`${p.tasks_completed_7d} in 7 days, ${p.tasks_completed_30d} in 30`}
        />
        <Stat label="Success rate" value={percent(p.success_rate_percent)} />
        <Stat
          label="Quality"
          value={score(p.quality_score, 10)}
          hint={`Collaboration ${score(p.collaboration_score, 10)}`}
        />
        <Stat
          label="Per task"
          value={formatMoney(p.cost_per_task, currency)}
          hint={`Average time ${formatDuration(p.avg_completion_time_seconds)}`}
        />
      </SimpleGrid>
      {windows.length > 0 ? (
        <Suspense fallback={<Loading label="Loading the chart" />}>
          <PerformanceChart windows={windows} />
        </Suspense>
      ) : null}
      <Table.ScrollContainer minWidth={640}>
        <Table captionSide="top">
          <Table.Caption>Performance by window</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Window</Table.Th>
              <Table.Th scope="col">Completed</Table.Th>
              <Table.Th scope="col">Failed</Table.Th>
              <Table.Th scope="col">Success rate</Table.Th>
              <Table.Th scope="col">Quality</Table.Th>
              <Table.Th scope="col">Cost per task</Table.Th>
              <Table.Th scope="col">Average time</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {windows.map((w) => (
              <Table.Tr key={w.window_size}>
                <Table.Td>Last {w.window_size.replace('d', ' days')}</Table.Td>
                <Table.Td>{w.tasks_completed}</Table.Td>
                <Table.Td>{w.tasks_failed}</Table.Td>
                <Table.Td>
                  {w.success_rate === null || w.success_rate === undefined ? '—' : percent(w.success_rate * 100)}
                </Table.Td>
                <Table.Td>{score(w.avg_quality_score, 10)}</Table.Td>
                <Table.Td>{formatMoney(w.avg_cost_per_task, currency)}</Table.Td>
                <Table.Td>{formatDuration(w.avg_completion_time_seconds)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {p.trends.length > 0 ? (
        <Table.ScrollContainer minWidth={480}>
          <Table captionSide="top">
            <Table.Caption>Trends of each metric</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Metric</Table.Th>
                <Table.Th scope="col">Window</Table.Th>
                <Table.Th scope="col">Direction</Table.Th>
                <Table.Th scope="col">Data points</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.trends.map((t) => (
                <Table.Tr key={`${t.metric_name}-${t.window_size}`}>
                  <Table.Td>{humanize(t.metric_name)}</Table.Td>
                  <Table.Td>{t.window_size}</Table.Td>
                  <Table.Td>{humanize(t.direction)}</Table.Td>
                  <Table.Td>{t.data_point_count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}

function ActivityPanel({ agent }: { agent: Agent }) {
  const [offset, setOffset] = useState(0);
  const activity = useQuery({
    queryKey: ['agents', 'detail', agent.name, 'activity', offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/agents/{agent_name}/activity', {
          params: { path: { agent_name: agent.name }, query: { offset, limit: ACTIVITY_PAGE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  if (activity.error) {
    return <ErrorNotice error={activity.error} title="The activity could not be loaded" />;
  }
  if (!activity.data) {
    return <Loading label="Loading the activity" />;
  }
  if (activity.data.total === 0) {
    return (
      <Empty title="No activity yet">
        Tasks started and completed, tools used, delegations and costs of {agent.name} appear here as they happen.
      </Empty>
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table striped captionSide="top">
          <Table.Caption>What {agent.name} did, newest first</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">What happened</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {activity.data.items.map((event, index) => (
              <Table.Tr key={`${event.timestamp}-${index}`}>
                <Table.Td title={formatDateTime(event.timestamp)}>{relativeTime(event.timestamp)}</Table.Td>
                <Table.Td>{humanize(event.event_type)}</Table.Td>
                <Table.Td>
                  {event.description}
                  {event.related_ids?.task_id ? (
                    <>
                      {' '}
                      <Anchor component={Link} to={`/tasks/${encodeURIComponent(event.related_ids.task_id)}`} size="sm">
                        Open task
                      </Anchor>
                    </>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPager
        total={activity.data.total}
        offset={activity.data.offset}
        limit={ACTIVITY_PAGE}
        onChange={setOffset}
        label="Pages of activity"
      />
    </>
  );
}

function CareerPanel({ agent }: { agent: Agent }) {
  const history = useQuery({
    queryKey: ['agents', 'detail', agent.name, 'history'],
    queryFn: () =>
      unwrap(api.GET('/api/v1/agents/{agent_name}/history', { params: { path: { agent_name: agent.name } } })),
  });
  if (history.error) {
    return <ErrorNotice error={history.error} title="The career history could not be loaded" />;
  }
  if (!history.data) {
    return <Loading label="Loading the career history" />;
  }
  if (history.data.length === 0) {
    return <Empty title="No career events yet">Hiring, onboarding, promotions and demotions appear here.</Empty>;
  }
  return (
    <Timeline
      active={history.data.length - 1}
      bulletSize={14}
      lineWidth={2}
      component="ol"
      aria-label="Career events, oldest first"
    >
      {history.data.map((event, index) => (
        <Timeline.Item key={`${event.timestamp}-${index}`} title={humanize(event.event_type)} component="li">
          <Text size="sm">{event.description}</Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(event.timestamp)}
            {event.initiated_by ? ` · by ${event.initiated_by}` : ''}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

function SpendPanel({ agent }: { agent: Agent }) {
  const config = useBudgetConfig();
  const spend = useQuery({
    queryKey: ['budget', 'agent', agent.id],
    queryFn: () => unwrap(api.GET('/api/v1/budget/agents/{agent_id}', { params: { path: { agent_id: agent.id } } })),
  });
  const currency = spend.data?.currency ?? config.data?.currency;
  return (
    <Stack gap="md">
      {spend.error ? <ErrorNotice error={spend.error} title="The agent’s spend could not be loaded" /> : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat
          label="Spent in total"
          value={spend.data ? formatMoney(spend.data.total_cost_usd, currency) : spend.isPending ? '…' : '—'}
        />
        <Stat
          label="Own monthly budget"
          value={
            agent.budget_limit_monthly === null || agent.budget_limit_monthly === undefined
              ? 'None'
              : formatMoney(agent.budget_limit_monthly, currency)
          }
          hint={
            agent.budget_limit_monthly === null || agent.budget_limit_monthly === undefined
              ? 'The company’s limits apply'
              : undefined
          }
        />
        <Stat
          label="Daily limit per agent"
          value={
            config.data
              ? config.data.per_agent_daily_limit > 0
                ? formatMoney(config.data.per_agent_daily_limit, currency)
                : 'No limit'
              : '—'
          }
          hint={
            config.data
              ? `Per task: ${config.data.per_task_limit > 0 ? formatMoney(config.data.per_task_limit, currency) : 'no limit'}`
              : undefined
          }
        />
      </SimpleGrid>
      <Title order={2} size="h4">
        Model calls
      </Title>
      <CostRecords agentId={agent.id} currency={currency} pageSize={10} showDaily />
    </Stack>
  );
}

function AgentDetailPage() {
  const { agentName = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'performance';
  const config = useBudgetConfig();
  const { me } = useSession();
  const [dialog, setDialog] = useState<'edit' | 'fire' | null>(null);
  const agent = useQuery({
    queryKey: ['agents', 'detail', agentName],
    queryFn: () => unwrap(api.GET('/api/v1/agents/{agent_name}', { params: { path: { agent_name: agentName } } })),
  });
  const back = (
    <Button component={Link} to="/agents" variant="default" size="sm">
      All agents
    </Button>
  );

  if (agent.error) {
    const missing = agent.error instanceof ApiError && agent.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'No such agent' : agentName} actions={back} />
        <ErrorNotice
          error={agent.error}
          title={missing ? `There is no agent named “${agentName}”` : 'The agent could not be loaded'}
        />
      </>
    );
  }
  if (!agent.data) {
    return <Loading label="Loading the agent" />;
  }
  const a = agent.data;
  const currency = config.data?.currency;
  return (
    <>
      <PageHeader
        title={a.name}
        description={`${a.role} · ${departmentLabel(a.department)} · ${levelLabel(a.level)}`}
        actions={
          <>
            {back}
            {can(me.role, 'manage') && a.status !== 'terminated' ? (
              <>
                <Button size="sm" onClick={() => setDialog('edit')}>
                  Edit agent
                </Button>
                <Button size="sm" color="red" variant="light" onClick={() => setDialog('fire')}>
                  Fire agent
                </Button>
              </>
            ) : null}
          </>
        }
      />
      <Profile agent={a} currency={currency} />
      {a.status === 'terminated' ? <OffboardingPanel agent={a} /> : null}
      {a.status === 'onboarding' ? <OnboardingPanel agent={a} /> : null}
      {dialog === 'edit' ? <EditAgentDialog agent={a} onClose={() => setDialog(null)} /> : null}
      {dialog === 'fire' ? <FireAgentDialog agent={a} onClose={() => setDialog(null)} /> : null}
      <Tabs
        value={tab}
        onChange={(value) => setParams(value && value !== 'performance' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="performance">Performance</Tabs.Tab>
          <Tabs.Tab value="activity">Activity</Tabs.Tab>
          <Tabs.Tab value="career">Career history</Tabs.Tab>
          <Tabs.Tab value="autonomy">Autonomy and trust</Tabs.Tab>
          <Tabs.Tab value="spend">Budget and spend</Tabs.Tab>
          <Tabs.Tab value="memories">Memories</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="performance">
          <PerformancePanel agent={a} currency={currency} />
        </Tabs.Panel>
        <Tabs.Panel value="activity">
          <ActivityPanel agent={a} />
        </Tabs.Panel>
        <Tabs.Panel value="career">
          {can(me.role, 'manage') && a.status !== 'terminated' ? <LevelEvaluationPanel agent={a} /> : null}
          <CareerPanel agent={a} />
        </Tabs.Panel>
        <Tabs.Panel value="autonomy">
          <Stack gap="md">
            <AutonomyPanel agent={a} />
            <TrustPanel agent={a} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="spend">
          <SpendPanel agent={a} />
        </Tabs.Panel>
        <Tabs.Panel value="memories">
          <MemoriesPanel agent={a} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

export default function AgentDetail() {
  return (
    <>
      <AgentDetailPage />
    </>
  );
}
