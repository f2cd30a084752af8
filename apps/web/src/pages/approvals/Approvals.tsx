import { Badge, Button, Group, NativeSelect, Stack, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorNotice } from '../../app/errors';
import { humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ApprovalCard, type Decision } from './ApprovalCard';
import { DecisionDialog } from './DecisionDialog';
import {
  type Approval,
  approvalKeys,
  APPROVAL_STATUSES,
  type ApprovalStatus,
  byUrgency,
  countApprovals,
  fetchApprovals,
  RISK_LEVELS,
  type RiskLevel,
} from './queries';

const PAGE_SIZE = 20;

const TAB_LABELS: Record<ApprovalStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
};

const EMPTY_TEXT: Record<ApprovalStatus, { title: string; text: string }> = {
  pending: {
    title: 'Nothing waits for a decision',
    text: 'When an agent wants to take an action its autonomy does not cover, such as a deploy, the request waits here until someone approves or rejects it.',
  },
  approved: {
    title: 'No approved items yet',
    text: 'Approved requests are listed here, with who approved them and when.',
  },
  rejected: { title: 'No rejected items yet', text: 'Rejected requests are listed here, with the reason given.' },
  expired: {
    title: 'No expired items',
    text: 'Requests whose deadline passed without a decision are listed here.',
  },
};

function parseStatus(value: string | null): ApprovalStatus {
  return (APPROVAL_STATUSES as readonly string[]).includes(value ?? '') ? (value as ApprovalStatus) : 'pending';
}

function parseRisk(value: string | null): RiskLevel | null {
  return (RISK_LEVELS as readonly string[]).includes(value ?? '') ? (value as RiskLevel) : null;
}

/** The current time, moving on every `everyMs` so deadlines and "5 minutes ago" stay true. */
function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** The approval queue: pending items most pressing first, the decided and expired history beside. */
export default function Approvals() {
  const { me } = useSession();
  const mayDecide = can(me.role, 'approve');
  const [params, setParams] = useSearchParams();
  const status = parseStatus(params.get('status'));
  const risk = parseRisk(params.get('risk'));
  const [chosen, setChosen] = useState<{ item: Approval; decision: Decision } | null>(null);

  const pendingCount = useQuery({
    queryKey: approvalKeys.count('pending'),
    queryFn: () => countApprovals('pending'),
  });

  const update = (next: { status?: ApprovalStatus; risk?: RiskLevel | null }) => {
    const search = new URLSearchParams(params);
    const nextStatus = next.status ?? status;
    const nextRisk = next.risk === undefined ? risk : next.risk;
    if (nextStatus === 'pending') {
      search.delete('status');
    } else {
      search.set('status', nextStatus);
    }
    if (nextRisk) {
      search.set('risk', nextRisk);
    } else {
      search.delete('risk');
    }
    setParams(search, { replace: true });
  };

  const decide = useCallback((item: Approval, decision: Decision) => setChosen({ item, decision }), []);

  return (
    <>
      <PageHeader
        title="Approvals"
        description={
          <Text span inherit c="gray.7">
            Actions agents may not take on their own wait here for a person&apos;s decision.
          </Text>
        }
      />
      {mayDecide ? null : (
        <Text size="sm" mb="md">
          You can follow every request here. Deciding them takes the CEO, Manager or Board member role.
        </Text>
      )}
      <Tabs value={status} onChange={(value) => update({ status: parseStatus(value) })} keepMounted={false}>
        <Group justify="space-between" align="flex-end" gap="sm" mb="md" wrap="wrap">
          <Tabs.List aria-label="Approval status">
            {APPROVAL_STATUSES.map((value) => (
              <Tabs.Tab
                key={value}
                value={value}
                rightSection={
                  value === 'pending' && pendingCount.data ? (
                    <Badge size="sm" color="indigo.8" variant="filled" circle={pendingCount.data < 10}>
                      {pendingCount.data}
                    </Badge>
                  ) : null
                }
              >
                {TAB_LABELS[value]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <NativeSelect
            label="Risk level"
            size="sm"
            w={180}
            value={risk ?? ''}
            onChange={(event) => update({ risk: parseRisk(event.currentTarget.value) })}
            data={[
              { value: '', label: 'All risk levels' },
              ...RISK_LEVELS.map((value) => ({ value, label: humanize(value) })),
            ]}
          />
        </Group>
        {APPROVAL_STATUSES.map((value) => (
          <Tabs.Panel key={value} value={value}>
            <ApprovalList key={risk ?? 'all'} status={value} risk={risk} onDecide={mayDecide ? decide : undefined} />
          </Tabs.Panel>
        ))}
      </Tabs>
      <DecisionDialog
        item={chosen?.item ?? null}
        decision={chosen?.decision ?? 'approve'}
        onClose={() => setChosen(null)}
      />
    </>
  );
}

interface ApprovalListProps {
  status: ApprovalStatus;
  risk: RiskLevel | null;
  onDecide?: (item: Approval, decision: Decision) => void;
}

function ApprovalList({ status, risk, onDecide }: ApprovalListProps) {
  const [page, setPage] = useState(0);
  const now = useNow();
  const filter = { status, risk, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: approvalKeys.list(filter),
    queryFn: () => fetchApprovals(filter),
    placeholderData: keepPreviousData,
  });
  const data = list.data;

  // A later page emptied by decisions made meanwhile: back to the last page that has items.
  const lastPage = data ? Math.max(0, Math.ceil(data.total / PAGE_SIZE) - 1) : 0;
  useEffect(() => {
    if (data && !list.isPlaceholderData && page > lastPage) {
      setPage(lastPage);
    }
  }, [data, list.isPlaceholderData, page, lastPage]);

  const items = useMemo(() => {
    const rows = data?.items ?? [];
    return status === 'pending' ? [...rows].sort(byUrgency(Date.now())) : rows;
  }, [data, status]);

  if (list.error) {
    return <ErrorNotice error={list.error} title="The approvals could not be loaded" />;
  }
  if (!data) {
    return <Loading label="Loading approvals" />;
  }
  if (items.length === 0) {
    const empty = EMPTY_TEXT[status];
    return (
      <Empty title={risk ? `No ${TAB_LABELS[status].toLowerCase()} items of ${risk} risk` : empty.title}>
        {risk ? 'Choose "All risk levels" in the filter to see the others.' : empty.text}
      </Empty>
    );
  }

  const first = page * PAGE_SIZE;
  return (
    <Stack gap="sm">
      {items.map((item) => (
        <ApprovalCard key={item.id} item={item} now={now} onDecide={onDecide} />
      ))}
      {data.total > PAGE_SIZE ? (
        <Group justify="space-between" mt="xs">
          <Text size="sm" c="gray.7">
            {first + 1}–{Math.min(first + PAGE_SIZE, data.total)} of {data.total}
            {status === 'pending' ? ', longest waiting first' : ', newest first'}
          </Text>
          <Group gap="xs">
            <Button variant="default" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Button variant="default" disabled={page >= lastPage} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </Group>
        </Group>
      ) : null}
    </Stack>
  );
}
