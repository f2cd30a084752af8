import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { formatDate, formatDateTime, formatMoney, humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ListPager } from '../../components/ListPager';

type Report = Schemas['Report'];
type Period = Schemas['GenerateReportRequest']['period'];
type Template = NonNullable<Schemas['GenerateReportRequest']['template']>;

const PAGE = 20;
const PERIODS: Period[] = ['daily', 'weekly', 'monthly'];
const TEMPLATES: Template[] = [
  'comprehensive',
  'spending_summary',
  'performance_metrics',
  'task_completion',
  'risk_trends',
];

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${(value * (value <= 1 ? 100 : 1)).toFixed(1)}%`;
}

/** One report's sections: spending, task completion, performance by agent, risk. */
function ReportView({ id }: { id: string }) {
  const report = useQuery({
    queryKey: ['reports', 'detail', id],
    queryFn: () => unwrap(api.GET('/api/v1/reports/{report_id}', { params: { path: { report_id: id } } })),
  });
  if (report.error) {
    return <ErrorNotice error={report.error} title="The report could not be loaded" />;
  }
  if (!report.data) {
    return <Loading label="Loading the report" />;
  }
  const r: Report = report.data;
  const { spending, task_completion: tasks, performance, risk_trends: risk } = r.content;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="report-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h3" id="report-title">
            {humanize(r.template)}, {r.period}
          </Title>
          <Text size="sm" c="dimmed">
            {formatDate(r.start)} to {formatDate(r.end)} · generated {formatDateTime(r.generated_at)} by{' '}
            {r.generated_by}
          </Text>
        </div>
        {spending ? (
          <div>
            <Title order={3} size="h5">
              Spending
            </Title>
            <Text size="sm">
              {formatMoney(spending.total_cost_usd, spending.currency)} over {spending.record_count} calls (
              {spending.total_input_tokens.toLocaleString('en-US')} tokens in,{' '}
              {spending.total_output_tokens.toLocaleString('en-US')} out); the period before:{' '}
              {formatMoney(spending.previous_period_cost_usd, spending.currency)}
              {spending.change_percent !== null ? ` (${spending.change_percent.toFixed(1)}% change)` : ''}.
            </Text>
          </div>
        ) : null}
        {tasks ? (
          <div>
            <Title order={3} size="h5">
              Task completion
            </Title>
            <Text size="sm">
              {tasks.completed} completed and {tasks.failed} failed of {tasks.runs} runs (
              {percent(tasks.completion_rate)}).
            </Text>
          </div>
        ) : null}
        {performance && performance.agents.length > 0 ? (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing={4} aria-label="Performance by agent">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Agent</Table.Th>
                  <Table.Th scope="col">Completed</Table.Th>
                  <Table.Th scope="col">Failed</Table.Th>
                  <Table.Th scope="col">Success</Table.Th>
                  <Table.Th scope="col">Cost</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {performance.agents.map((a) => (
                  <Table.Tr key={a.agent_id}>
                    <Table.Td>{a.agent_name ?? a.agent_id}</Table.Td>
                    <Table.Td>{a.tasks_completed}</Table.Td>
                    <Table.Td>{a.tasks_failed}</Table.Td>
                    <Table.Td>{percent(a.success_rate)}</Table.Td>
                    <Table.Td>{formatMoney(a.total_cost_usd)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        {risk ? (
          <div>
            <Title order={3} size="h5">
              Risk
            </Title>
            <Text size="sm">{risk.total_risk_units} risk units in the period.</Text>
          </div>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** /reports: generate a report of a period with a template, list and read the stored ones. */
export default function Reports() {
  const { me } = useSession();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const selected = params.get('report');
  const [offset, setOffset] = useState(0);
  const [period, setPeriod] = useState<Period>('weekly');
  const [template, setTemplate] = useState<Template>('comprehensive');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const list = useQuery({
    queryKey: ['reports', 'list', offset],
    queryFn: () => unwrapPage(api.GET('/api/v1/reports', { params: { query: { offset, limit: PAGE } } })),
    placeholderData: keepPreviousData,
  });

  const generate = async () => {
    setBusy(true);
    setError(null);
    try {
      const report = await unwrap(api.POST('/api/v1/reports/generate', { body: { period, template } }));
      notifyDone(`The ${period} ${humanize(template).toLowerCase()} report was generated`);
      await client.invalidateQueries({ queryKey: ['reports'] });
      setParams({ report: report.id });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (list.error) {
    body = <ErrorNotice error={list.error} title="The reports could not be loaded" />;
  } else if (!list.data) {
    body = <Loading label="Loading the reports" />;
  } else if (list.data.total === 0) {
    body = <Empty title="No reports yet">Generate one for the last complete day, week or month.</Empty>;
  } else {
    body = (
      <>
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label="Reports">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Report</Table.Th>
                <Table.Th scope="col">Period</Table.Th>
                <Table.Th scope="col">Covers</Table.Th>
                <Table.Th scope="col">Generated</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((r) => (
                <Table.Tr key={r.id} aria-selected={r.id === selected}>
                  <Table.Td>
                    <Anchor component="button" type="button" onClick={() => setParams({ report: r.id })}>
                      {humanize(r.template)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.period}</Table.Td>
                  <Table.Td>
                    {formatDate(r.start)} – {formatDate(r.end)}
                  </Table.Td>
                  <Table.Td>
                    {formatDateTime(r.generated_at)}{' '}
                    <Badge size="xs" variant="light" color="gray">
                      {r.trigger}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <ListPager total={list.data.total} offset={offset} limit={PAGE} onChange={setOffset} label="Pages of reports" />
      </>
    );
  }

  return (
    <Stack>
      <PageHeader title="Reports" description="Spending, task completion, performance and risk over a period." />
      {can(me.role, 'write') ? (
        <Paper withBorder p="md" component="section" aria-labelledby="generate-report">
          <Title order={2} size="h4" id="generate-report" mb="xs">
            Generate a report
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ alignItems: 'end' }}>
            <NativeSelect
              label="Period"
              value={period}
              onChange={(e) => setPeriod(e.currentTarget.value as Period)}
              data={PERIODS.map((p) => ({ value: p, label: humanize(p) }))}
            />
            <NativeSelect
              label="Template"
              value={template}
              onChange={(e) => setTemplate(e.currentTarget.value as Template)}
              data={TEMPLATES.map((t) => ({ value: t, label: humanize(t) }))}
            />
            <Group>
              <Button loading={busy} onClick={() => void generate()}>
                Generate
              </Button>
            </Group>
          </SimpleGrid>
          {error ? <ErrorNotice error={error} title="The report was not generated" /> : null}
        </Paper>
      ) : null}
      {body}
      {selected ? <ReportView key={selected} id={selected} /> : null}
    </Stack>
  );
}
