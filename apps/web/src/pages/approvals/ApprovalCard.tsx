import { Anchor, Badge, Box, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, type ReactNode, useId } from 'react';
import { Link } from 'react-router';

import { formatDateTime, humanize, relativeTime } from '../../app/format';
import { type Approval, type RiskLevel, requestedCall, taskQuery, type UrgencyLevel, urgencyNow } from './queries';

export type Decision = 'approve' | 'reject';

/** Risk in words, its colour only a second signal (dark shades, for contrast on white). */
const RISK_BADGE: Record<RiskLevel, { color: string; variant: 'dot' | 'filled' }> = {
  low: { color: 'gray', variant: 'dot' },
  medium: { color: 'yellow', variant: 'dot' },
  high: { color: 'orange', variant: 'dot' },
  critical: { color: 'red.9', variant: 'filled' },
};

export function RiskBadge({ risk }: { risk: RiskLevel }) {
  const style = RISK_BADGE[risk];
  return (
    <Badge color={style.color} variant={style.variant} radius="sm">
      {humanize(risk)} risk
    </Badge>
  );
}

const URGENCY_BADGE: Record<UrgencyLevel, { color: string; variant: 'dot' | 'filled' | 'outline' }> = {
  critical: { color: 'red.9', variant: 'filled' },
  high: { color: 'red.9', variant: 'outline' },
  normal: { color: 'blue', variant: 'dot' },
  no_expiry: { color: 'gray', variant: 'dot' },
};

/** How long is left to decide: the deadline, kept current by `now`. */
export function TimeLeft({ item, now }: { item: Approval; now: number }) {
  const urgency = urgencyNow(item, now);
  const style = URGENCY_BADGE[urgency];
  let label: string;
  if (!item.expires_at) {
    label = 'No deadline';
  } else if (Date.parse(item.expires_at) <= now) {
    label = 'Past its deadline';
  } else {
    label = `${urgency === 'critical' ? 'Urgent: expires' : 'Expires'} ${relativeTime(item.expires_at, now)}`;
  }
  return (
    <Badge color={style.color} variant={style.variant} radius="sm" title={formatDateTime(item.expires_at)}>
      {label}
    </Badge>
  );
}

const STATUS_BADGE: Record<Approval['status'], { color: string; label: string }> = {
  pending: { color: 'indigo.8', label: 'Pending' },
  approved: { color: 'teal.9', label: 'Approved' },
  rejected: { color: 'red.9', label: 'Rejected' },
  expired: { color: 'gray.7', label: 'Expired' },
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="gray.7" fw={500}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {children}
      </Text>
    </div>
  );
}

function When({ iso, now }: { iso: string | null; now: number }) {
  if (!iso) {
    return <>—</>;
  }
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}

function Decided({ item, now }: { item: Approval; now: number }) {
  if (item.status === 'pending') {
    return null;
  }
  const by = item.decided_by && item.decided_by !== 'system' ? item.decided_by : null;
  const verb = item.status === 'approved' ? 'Approved' : item.status === 'rejected' ? 'Rejected' : 'Expired';
  return (
    <Box bg="gray.0" p="sm" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
      <Text size="sm" fw={500}>
        {verb}
        {by ? ` by ${by}` : item.status === 'expired' ? ' without a decision' : ''}{' '}
        <When iso={item.decided_at} now={now} />
      </Text>
      {item.decision_reason ? (
        <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
          {item.status === 'rejected' ? 'Reason: ' : 'Comment: '}
          {item.decision_reason}
        </Text>
      ) : null}
    </Box>
  );
}

/** The task an item belongs to, by its title once read (the id until then, or if it is gone). */
function TaskLink({ taskId }: { taskId: string }) {
  const task = useQuery(taskQuery(taskId));
  return (
    <Anchor component={Link} to={`/tasks/${encodeURIComponent(taskId)}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
      {task.data?.title ?? `Task ${taskId.slice(0, 8)}`}
    </Anchor>
  );
}

interface ApprovalCardProps {
  item: Approval;
  now: number;
  /** Offered only to roles that may decide, and only on pending items. */
  onDecide?: (item: Approval, decision: Decision) => void;
}

/**
 * One approval item: what is asked (the exact call and its arguments), by whom, for which task, its
 * risk and the time left; the decision once made.
 */
export const ApprovalCard = memo(function ApprovalCard({ item, now, onDecide }: ApprovalCardProps) {
  const headingId = useId();
  const call = requestedCall(item);
  const requester = call.agent ?? item.requested_by;
  const status = STATUS_BADGE[item.status];
  const pending = item.status === 'pending';

  return (
    <Card component="article" aria-labelledby={headingId} withBorder padding="md" radius="md">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={6} style={{ flex: '1 1 20rem', minWidth: 0 }}>
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {item.title}
          </Title>
          <Group gap={6}>
            {pending ? (
              <TimeLeft item={item} now={now} />
            ) : (
              <Badge color={status.color} variant="filled" radius="sm">
                {status.label}
              </Badge>
            )}
            <RiskBadge risk={item.risk_level} />
            <Badge color="gray" variant="outline" radius="sm" tt="none" c="dark.7">
              {item.action_type}
            </Badge>
          </Group>
        </Stack>
        {pending && onDecide ? (
          <Group gap="xs">
            <Button color="teal.9" onClick={() => onDecide(item, 'approve')}>
              Approve
            </Button>
            <Button color="red.9" variant="outline" onClick={() => onDecide(item, 'reject')}>
              Reject
            </Button>
          </Group>
        ) : null}
      </Group>

      {call.reason ? (
        <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {call.reason}
        </Text>
      ) : null}

      {call.tool || call.args ? (
        <Box mt="sm">
          <Text size="xs" c="gray.7" fw={500} mb={4}>
            {call.tool ? (
              <>
                Wants to run <Code c="dark.7">{call.tool}</Code>
                {call.args ? ' with these arguments' : ''}
              </>
            ) : (
              'Arguments'
            )}
          </Text>
          {call.args ? (
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} c="dark.7">
              {call.args}
            </Code>
          ) : null}
        </Box>
      ) : null}

      <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs" mt="sm" mb={0}>
        <Field label="Requested by">{requester}</Field>
        <Field label="Task">{item.task_id ? <TaskLink taskId={item.task_id} /> : 'None'}</Field>
        <Field label="Filed">
          <When iso={item.created_at} now={now} />
        </Field>
        <Field label="Deadline">{item.expires_at ? formatDateTime(item.expires_at) : 'None'}</Field>
        {call.details.map(([key, value]) => (
          <Field key={key} label={humanize(key)}>
            <span style={{ overflowWrap: 'anywhere' }}>{value}</span>
          </Field>
        ))}
      </SimpleGrid>

      {pending ? null : (
        <Box mt="sm">
          <Decided item={item} now={now} />
        </Box>
      )}
    </Card>
  );
});
