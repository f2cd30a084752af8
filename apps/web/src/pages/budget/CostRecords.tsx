import { Anchor, Group, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';

import { type Schemas, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime, formatMoney, humanize } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { agentPath } from '../agents/agentText';
import { ListPager } from '../../components/ListPager';

const DailySpendChart = lazy(() => import('./SpendCharts').then((m) => ({ default: m.DailySpendChart })));

export type CostRecord = Schemas['CostRecord'];
type Summaries = Schemas['BudgetRecordsSummaries'];

/** A page of cost records with the summaries over every matching record. */
export async function fetchCostRecords(query: { agent_id?: string; offset: number; limit: number }) {
  const pending = api.GET('/api/v1/budget/records', { params: { query } });
  const page = await unwrapPage(pending);
  const body = (await pending).data as Partial<Summaries> | undefined;
  return {
    ...page,
    daily: body?.daily_summary ?? [],
    period: body?.period_summary ?? null,
    currency: body?.currency ?? null,
  };
}

const tokens = new Intl.NumberFormat(undefined);
export const formatTokens = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : tokens.format(value);

/**
 * Cost records, newest first, paged with the API's offset and limit: all of them, or one agent's.
 * `agentNames` maps agent ids to names for the Agent column (omitted on an agent's own page).
 */
export function CostRecords({
  agentId,
  agentNames,
  currency,
  pageSize = 20,
  showDaily = false,
}: {
  agentId?: string;
  agentNames?: ReadonlyMap<string, string>;
  currency: string | undefined;
  pageSize?: number;
  showDaily?: boolean;
}) {
  const [offset, setOffset] = useState(0);
  const records = useQuery({
    queryKey: ['budget', 'records', agentId ?? 'all', offset, pageSize],
    queryFn: () => fetchCostRecords({ ...(agentId ? { agent_id: agentId } : {}), offset, limit: pageSize }),
    placeholderData: keepPreviousData,
  });

  if (records.error) {
    return <ErrorNotice error={records.error} title="The cost records could not be loaded" />;
  }
  if (!records.data) {
    return <Loading label="Loading cost records" />;
  }
  const data = records.data;
  const money = data.currency ?? currency;
  if (data.total === 0) {
    return (
      <Empty title="No spend recorded yet">
        Every model call {agentId ? 'this agent makes' : 'an agent makes'} is recorded here with its tokens and cost.
      </Empty>
    );
  }
  const showAgent = agentNames !== undefined;
  return (
    <>
      {data.period ? (
        <Group gap="lg" mb="sm" wrap="wrap">
          <Text size="sm">
            <Text span fw={600}>
              {formatMoney(data.period.total_cost_usd, money)}
            </Text>{' '}
            in {data.period.record_count} {data.period.record_count === 1 ? 'call' : 'calls'}
          </Text>
          <Text size="sm">
            Average{' '}
            <Text span fw={600}>
              {formatMoney(data.period.avg_cost_usd, money)}
            </Text>{' '}
            per call
          </Text>
          <Text size="sm">
            {formatTokens(data.period.total_input_tokens)} input and {formatTokens(data.period.total_output_tokens)}{' '}
            output tokens
          </Text>
        </Group>
      ) : null}
      {showDaily && data.daily.length > 0 ? (
        <Suspense fallback={<Loading label="Loading the chart" />}>
          <DailySpendChart days={data.daily} currency={money} />
        </Suspense>
      ) : null}
      <Table.ScrollContainer minWidth={760}>
        <Table striped captionSide="top">
          <Table.Caption>Model calls and their cost, newest first</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              {showAgent ? <Table.Th scope="col">Agent</Table.Th> : null}
              <Table.Th scope="col">Task</Table.Th>
              <Table.Th scope="col">Model</Table.Th>
              <Table.Th scope="col">Kind</Table.Th>
              <Table.Th scope="col" ta="right">
                Tokens
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Cost
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((record, index) => {
              const name = agentNames?.get(record.agent_id);
              return (
                <Table.Tr key={`${record.timestamp}-${record.agent_id}-${index}`}>
                  <Table.Td>{formatDateTime(record.timestamp)}</Table.Td>
                  {showAgent ? (
                    <Table.Td>
                      {name ? (
                        <Anchor component={Link} to={agentPath(name)}>
                          {name}
                        </Anchor>
                      ) : (
                        <Text size="sm" ff="monospace">
                          {record.agent_id}
                        </Text>
                      )}
                    </Table.Td>
                  ) : null}
                  <Table.Td>
                    {record.task_id ? (
                      <Anchor
                        component={Link}
                        to={`/tasks/${encodeURIComponent(record.task_id)}`}
                        title={record.task_id}
                        ff="monospace"
                        size="sm"
                      >
                        {record.task_id.length > 14 ? `${record.task_id.slice(0, 13)}…` : record.task_id}
                      </Anchor>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    {record.model}
                    <Text span size="xs" c="dimmed">
                      {' '}
                      ({record.provider})
                    </Text>
                  </Table.Td>
                  <Table.Td>{humanize(record.call_category)}</Table.Td>
                  <Table.Td ta="right">{formatTokens(record.total_tokens)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(record.cost_usd, money)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPager
        total={data.total}
        offset={data.offset}
        limit={pageSize}
        onChange={setOffset}
        label={agentId ? 'Pages of this agent’s cost records' : 'Pages of cost records'}
      />
    </>
  );
}
