import {
  Alert,
  Anchor,
  Grid,
  Group,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDate, formatMoney } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useBudgetConfig } from '../agents/agentQueries';
import { agentPath, departmentLabel } from '../agents/agentText';
import { BudgetConfigPanel } from './BudgetConfigPanel';
import { CostRecords } from './CostRecords';

const ForecastChart = lazy(() => import('./SpendCharts').then((m) => ({ default: m.ForecastChart })));

type Summary = Schemas['SpendingSummary'];
type Forecast = Schemas['ForecastResponse'];

const HORIZONS = ['7', '14', '30', '90'];

const ALERT_TEXT: Record<string, { title: string; color: string }> = {
  warning: { title: 'Budget warning', color: 'yellow' },
  critical: { title: 'Budget critical', color: 'orange' },
  hard_stop: { title: 'Budget exhausted: spending is stopped', color: 'red' },
};

const num = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

function Stat({ label, value, children }: { label: string; value: ReactNode; children?: ReactNode }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {children}
    </Paper>
  );
}

/** "in 12 days (Dec 8, 2026)" from a count of days from today. */
function exhaustionText(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000).toISOString();
  return days <= 0 ? 'now' : `in ${days === 1 ? '1 day' : `${days} days`} (${formatDate(date)})`;
}

function StandingAlert({ summary, thresholds }: { summary: Summary; thresholds: Schemas['BudgetConfig'] | undefined }) {
  const alert = ALERT_TEXT[summary.alert_level];
  if (!alert) {
    return null;
  }
  const used = num(summary.budget_used_percent);
  const at =
    summary.alert_level === 'warning'
      ? thresholds?.alerts.warn_at
      : summary.alert_level === 'critical'
        ? thresholds?.alerts.critical_at
        : thresholds?.alerts.hard_stop_at;
  return (
    <Alert color={alert.color} title={alert.title} role="status" mb="md" variant="light">
      <Text size="sm">
        {used === null ? 'The budget' : `${Math.round(used)}% of the monthly budget`} is used this period
        {at !== undefined ? ` (this alert starts at ${at}%)` : ''}.
        {summary.alert_level === 'hard_stop'
          ? ' Agents make no further model calls until the budget is raised or the period resets.'
          : ''}
      </Text>
    </Alert>
  );
}

function Standing({ summary, currency }: { summary: Summary; currency: string | undefined }) {
  const spent = num(summary.period?.totals?.total_cost_usd);
  const budget = num(summary.budget_total_monthly);
  const used = num(summary.budget_used_percent);
  const projected = num(summary.forecast?.projected_period_total_usd);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mb="md">
      <Stat label="Spent this period" value={formatMoney(spent, currency)}>
        <Text size="xs" c="dimmed">
          {summary.period?.totals
            ? `${summary.period.totals.record_count} model ${summary.period.totals.record_count === 1 ? 'call' : 'calls'}`
            : 'Not shown for your role'}
        </Text>
      </Stat>
      <Stat label="Monthly budget" value={budget !== null && budget > 0 ? formatMoney(budget, currency) : 'Not set'}>
        <Text size="xs" c="dimmed">
          {budget !== null && budget > 0 && spent !== null
            ? `${formatMoney(Math.max(0, budget - spent), currency)} left`
            : 'Without a budget, spending is not capped'}
        </Text>
      </Stat>
      <Stat label="Used" value={used === null ? '—' : `${Math.round(used * 10) / 10}%`}>
        <Progress
          value={Math.min(100, used ?? 0)}
          color={summary.alert_level === 'normal' ? 'indigo' : (ALERT_TEXT[summary.alert_level]?.color ?? 'indigo')}
          mt={6}
          aria-label={`Budget used: ${used === null ? 'unknown' : `${Math.round(used)}%`}`}
        />
      </Stat>
      <Stat label="Projected for the period" value={formatMoney(projected, currency)}>
        <Text size="xs" c="dimmed">
          Averaging {formatMoney(num(summary.forecast?.avg_daily_spend_usd), currency)} a day
        </Text>
      </Stat>
    </SimpleGrid>
  );
}

function forecastSentence(forecast: Forecast, currency: string | undefined, hasBudget: boolean): string {
  const avg = num(forecast.avg_daily_spend_usd) ?? 0;
  if (avg <= 0) {
    return `No spend in the last ${forecast.horizon_days} days, so nothing is projected yet. The forecast follows the average daily spend once agents work.`;
  }
  const days = forecast.days_until_exhausted;
  const runsOut = !hasBudget
    ? 'No monthly budget is set, so it never runs out.'
    : days === null || days === undefined
      ? 'The budget is not expected to run out.'
      : `At this rate the budget runs out ${exhaustionText(days)}.`;
  return `At ${formatMoney(avg, currency)} a day, ${formatMoney(num(forecast.projected_total_usd), currency)} over the next ${forecast.horizon_days} days. ${runsOut}`;
}

function ForecastSection({ summary, currency }: { summary: Summary | undefined; currency: string | undefined }) {
  const [horizon, setHorizon] = useState('14');
  const forecast = useQuery({
    queryKey: ['budget', 'forecast', horizon],
    queryFn: () =>
      unwrap(api.GET('/api/v1/analytics/forecast', { params: { query: { horizon_days: Number(horizon) } } })),
    placeholderData: keepPreviousData,
  });
  const budget = num(summary?.budget_total_monthly) ?? 0;
  const spent = num(summary?.period?.totals?.total_cost_usd);
  const remaining = budget > 0 && spent !== null ? Math.max(0, budget - spent) : null;
  const money = forecast.data?.currency ?? currency;
  const sentence = forecast.data ? forecastSentence(forecast.data, money, budget > 0) : '';
  const days = forecast.data?.days_until_exhausted;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="forecast-title" h="100%">
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="forecast-title">
          Forecast
        </Title>
        <Select
          label="Horizon"
          data={HORIZONS.map((h) => ({ value: h, label: `${h} days` }))}
          value={horizon}
          onChange={(value) => setHorizon(value ?? '14')}
          allowDeselect={false}
          size="xs"
          w={120}
        />
      </Group>
      {forecast.error ? (
        <ErrorNotice error={forecast.error} title="The forecast could not be loaded" />
      ) : !forecast.data ? (
        <Loading label="Loading the forecast" />
      ) : (
        <Stack gap="sm">
          <Group gap="xl" wrap="wrap">
            <div>
              <Text size="xs" c="dimmed">
                Budget runs out
              </Text>
              <Text fw={700}>
                {budget <= 0
                  ? 'No budget set'
                  : days === null || days === undefined
                    ? 'Not at the current rate'
                    : exhaustionText(days)}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Projected next {forecast.data.horizon_days} days
              </Text>
              <Text fw={700}>{formatMoney(num(forecast.data.projected_total_usd), money)}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Confidence
              </Text>
              <Text fw={700}>{Math.round((num(forecast.data.confidence) ?? 0) * 100)}%</Text>
            </div>
          </Group>
          <Text size="sm">{sentence}</Text>
          {forecast.data.daily_projections.length > 0 ? (
            <Suspense fallback={<Loading label="Loading the chart" />}>
              <ForecastChart
                points={forecast.data.daily_projections}
                currency={money}
                remaining={remaining}
                summary={sentence}
              />
            </Suspense>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}

function Share({ value, total }: { value: number | null; total: number | null }) {
  if (value === null || !total) {
    return <>—</>;
  }
  return <>{Math.round((value / total) * 1000) / 10}%</>;
}

function Breakdown({ summary, currency }: { summary: Summary; currency: string | undefined }) {
  const byAgent = summary.by_agent ?? [];
  const byDepartment = summary.by_department ?? [];
  const total = num(summary.period?.totals?.total_cost_usd);
  if (byAgent.length === 0 && byDepartment.length === 0) {
    return (
      <Paper withBorder p="md" component="section" aria-labelledby="breakdown-title">
        <Title order={2} size="h4" id="breakdown-title">
          Spending this period
        </Title>
        <Empty title="No spend this period">
          As agents call models, their spending adds up here by department and by agent.
        </Empty>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="breakdown-title">
      <Title order={2} size="h4" id="breakdown-title" mb="sm">
        Spending this period
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Table.ScrollContainer minWidth={320}>
          <Table captionSide="top">
            <Table.Caption>By department</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Department</Table.Th>
                <Table.Th scope="col" ta="right">
                  Spent
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Share
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Calls
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {byDepartment.map((d) => (
                <Table.Tr key={d.department}>
                  <Table.Td>{departmentLabel(d.department)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(num(d.total_cost_usd), currency)}</Table.Td>
                  <Table.Td ta="right">
                    <Share value={num(d.total_cost_usd)} total={total} />
                  </Table.Td>
                  <Table.Td ta="right">{d.record_count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Table.ScrollContainer minWidth={320}>
          <Table captionSide="top">
            <Table.Caption>By agent</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Agent</Table.Th>
                <Table.Th scope="col" ta="right">
                  Spent
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Share
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Calls
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {byAgent.map((a) => (
                <Table.Tr key={a.agent_id}>
                  <Table.Td>
                    {a.agent_name ? (
                      <Anchor component={Link} to={agentPath(a.agent_name)}>
                        {a.agent_name}
                      </Anchor>
                    ) : (
                      <Text size="sm" ff="monospace">
                        {a.agent_id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(num(a.total_cost_usd), currency)}</Table.Td>
                  <Table.Td ta="right">
                    <Share value={num(a.total_cost_usd)} total={total} />
                  </Table.Td>
                  <Table.Td ta="right">{a.record_count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </SimpleGrid>
    </Paper>
  );
}

function BudgetPage() {
  const config = useBudgetConfig();
  const summary = useQuery({ queryKey: ['budget', 'summary'], queryFn: () => unwrap(api.GET('/api/v1/budget')) });
  const currency = summary.data?.currency ?? config.data?.currency;
  const names = useMemo(
    () =>
      new Map(
        (summary.data?.by_agent ?? []).flatMap((a) => (a.agent_name ? [[a.agent_id, a.agent_name] as const] : [])),
      ),
    [summary.data],
  );
  const period = summary.data?.period;

  return (
    <>
      <PageHeader
        title="Budget"
        description={
          period
            ? `Billing period ${formatDate(period.start)} – ${formatDate(period.end)}${currency ? ` · amounts in ${currency}` : ''}`
            : 'Spending, limits and the forecast of the billing period'
        }
      />
      {summary.error ? <ErrorNotice error={summary.error} title="The spending summary could not be loaded" /> : null}
      {summary.data ? (
        <>
          <StandingAlert summary={summary.data} thresholds={config.data} />
          <Standing summary={summary.data} currency={currency} />
        </>
      ) : summary.isPending ? (
        <Loading label="Loading the spending summary" />
      ) : null}
      <Grid mb="md" align="stretch">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ForecastSection summary={summary.data} currency={currency} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          {config.error ? (
            <ErrorNotice error={config.error} title="The budget configuration could not be loaded" />
          ) : config.data ? (
            <BudgetConfigPanel config={config.data} />
          ) : (
            <Loading label="Loading the configuration" />
          )}
        </Grid.Col>
      </Grid>
      <Stack gap="md">
        {summary.data ? <Breakdown summary={summary.data} currency={currency} /> : null}
        <Paper withBorder p="md" component="section" aria-labelledby="records-title">
          <Title order={2} size="h4" id="records-title" mb="sm">
            Cost records
          </Title>
          <CostRecords agentNames={names} currency={currency} showDaily />
        </Paper>
      </Stack>
    </>
  );
}

export default function Budget() {
  return (
    <>
      <BudgetPage />
    </>
  );
}
