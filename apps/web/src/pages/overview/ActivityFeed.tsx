import { Anchor, Box, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';

import { type Schemas, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime, humanize, relativeTime } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { taskQuery } from '../approvals/queries';

type ActivityEvent = Schemas['ActivityEvent'];

const FEED_SIZE = 8;
const FEED_HOURS = 168;

/** A mark beside each line; the event's kind is also written out. */
const TYPE_COLOR: Partial<Record<ActivityEvent['event_type'], string>> = {
  task_completed: 'teal.7',
  task_started: 'blue.6',
  tool_used: 'violet.6',
  cost_incurred: 'gray.5',
  hired: 'indigo.6',
  onboarded: 'indigo.6',
  fired: 'red.7',
  offboarded: 'red.7',
};

/** Agent names by id, for the feed's lines (ids are what the events carry). */
function useAgentNames(): Map<string, string> {
  const agents = useQuery({
    queryKey: ['agents', 'names'],
    queryFn: () => unwrapPage(api.GET('/api/v1/agents', { params: { query: { limit: 200 } } })),
    staleTime: 60_000,
  });
  const names = new Map<string, string>();
  for (const agent of agents.data?.items ?? []) {
    names.set(agent.id, agent.name);
  }
  return names;
}

/** A task by its title, linked; read once and shared by every line that names it. */
function TaskTitle({ taskId }: { taskId: string }) {
  const task = useQuery(taskQuery(taskId));
  return (
    <Anchor
      component={Link}
      to={`/tasks/${encodeURIComponent(taskId)}`}
      inherit
      underline="always"
      style={{ overflowWrap: 'anywhere' }}
    >
      {task.data?.title ?? `task ${taskId.slice(0, 8)}`}
    </Anchor>
  );
}

/** The event's sentence, its task id shown as the task's title. */
function describe(event: ActivityEvent): ReactNode {
  const taskId = event.related_ids.task_id;
  const at = taskId ? event.description.indexOf(taskId) : -1;
  if (!taskId || at < 0) {
    return event.description;
  }
  return (
    <>
      {event.description.slice(0, at)}
      <TaskTitle taskId={taskId} />
      {event.description.slice(at + taskId.length)}
    </>
  );
}

const FeedLine = memo(function FeedLine({ event, agent }: { event: ActivityEvent; agent: string | null }) {
  const taskId = event.related_ids.task_id;
  const named = taskId !== undefined && event.description.includes(taskId);
  return (
    <li>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Box
          mt={7}
          w={8}
          h={8}
          bg={TYPE_COLOR[event.event_type] ?? 'gray.5'}
          style={{ borderRadius: '50%', flexShrink: 0 }}
          aria-hidden
        />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {describe(event)}
          </Text>
          <Text size="xs" c="gray.7">
            {humanize(event.event_type)}
            {agent ? ` · ${agent}` : ''}
            {taskId && !named ? (
              <>
                {' · '}
                <TaskTitle taskId={taskId} />
              </>
            ) : null}
            {' · '}
            <time dateTime={event.timestamp} title={formatDateTime(event.timestamp)}>
              {relativeTime(event.timestamp)}
            </time>
          </Text>
        </Stack>
      </Group>
    </li>
  );
});

/** What the company did lately, newest first; refreshed by every task and approval event. */
export function ActivityFeed() {
  const names = useAgentNames();
  const feed = useQuery({
    queryKey: ['activity', 'company', { hours: FEED_HOURS, limit: FEED_SIZE }],
    queryFn: () =>
      unwrapPage(api.GET('/api/v1/activities', { params: { query: { last_n_hours: FEED_HOURS, limit: FEED_SIZE } } })),
  });

  if (feed.error) {
    return <ErrorNotice error={feed.error} title="The activity could not be loaded" />;
  }
  if (!feed.data) {
    return <Loading label="Loading activity" />;
  }
  if (feed.data.items.length === 0) {
    return (
      <Empty title="No activity this week">Hires, task runs, tool calls and spend appear here as they happen.</Empty>
    );
  }
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Recent activity">
      {feed.data.items.map((event, i) => (
        <FeedLine
          key={`${event.timestamp}-${event.event_type}-${i}`}
          event={event}
          agent={event.related_ids.agent_id ? (names.get(event.related_ids.agent_id) ?? null) : null}
        />
      ))}
    </Stack>
  );
}
