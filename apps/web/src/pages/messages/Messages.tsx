import { Badge, Grid, Group, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';

import { unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime, humanize, relativeTime } from '../../app/format';
import { useLiveState } from '../../app/live';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ListPager } from '../../components/ListPager';

const PAGE = 30;
const PRIORITY_COLOR = { low: 'gray', normal: 'blue', high: 'orange', urgent: 'red' } as const;

/** /messages: the channels, and each channel's messages, newest first, refreshed as they arrive. */
export default function Messages() {
  const [params, setParams] = useSearchParams();
  const channel = params.get('channel') ?? '';
  const offset = Number(params.get('offset') ?? 0) || 0;
  const live = useLiveState();
  const channels = useQuery({
    queryKey: ['messages', 'channels'],
    queryFn: () => unwrap(api.GET('/api/v1/messages/channels')),
  });
  const feed = useQuery({
    queryKey: ['messages', 'feed', channel, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/messages', {
          params: { query: { offset, limit: PAGE, ...(channel ? { channel } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const choose = (name: string) => setParams(name ? { channel: name } : {});

  let body;
  if (feed.error) {
    body = <ErrorNotice error={feed.error} title="The messages could not be loaded" />;
  } else if (!feed.data) {
    body = <Loading label="Loading the messages" />;
  } else if (feed.data.total === 0) {
    body = <Empty title="No messages here yet">Agents post here as they work, delegate and meet.</Empty>;
  } else {
    body = (
      <>
        <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Messages">
          {feed.data.items.map((m) => (
            <Paper key={m.id} withBorder p="sm" component="li">
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text size="sm" fw={600}>
                  {m.from}{' '}
                  <Text span c="dimmed" size="sm" fw={400}>
                    to {m.to}
                  </Text>
                </Text>
                <Group gap={6}>
                  <Badge size="xs" variant="light" color={PRIORITY_COLOR[m.priority]}>
                    {m.priority}
                  </Badge>
                  <Badge size="xs" variant="outline" color="gray">
                    {humanize(m.type)}
                  </Badge>
                  <Text
                    size="xs"
                    c="dimmed"
                    component="time"
                    dateTime={m.timestamp}
                    title={formatDateTime(m.timestamp)}
                  >
                    {relativeTime(m.timestamp)}
                  </Text>
                </Group>
              </Group>
              <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
                {m.content}
              </Text>
              {m.metadata.task_id || !channel ? (
                <Text size="xs" c="dimmed" mt={4}>
                  {channel ? null : `${m.channel} `}
                  {m.metadata.task_id ? (
                    <Link to={`/tasks/${m.metadata.task_id}`}>Task {m.metadata.task_id.slice(0, 8)}</Link>
                  ) : null}
                </Text>
              ) : null}
            </Paper>
          ))}
        </Stack>
        <ListPager
          total={feed.data.total}
          offset={offset}
          limit={PAGE}
          label="Pages of messages"
          onChange={(next) => setParams({ ...(channel ? { channel } : {}), offset: String(next) })}
        />
      </>
    );
  }

  return (
    <Stack>
      <PageHeader
        title="Messages"
        description={
          live === 'live'
            ? 'What the agents say to each other; new messages appear as they are sent.'
            : 'What the agents say to each other.'
        }
      />
      <Grid>
        <Grid.Col span={{ base: 12, sm: 4, lg: 3 }}>
          <Paper withBorder p="xs" component="nav" aria-label="Channels">
            <Title order={2} size="h5" px="xs" pb={4}>
              Channels
            </Title>
            {channels.error ? <ErrorNotice error={channels.error} title="The channels could not be loaded" /> : null}
            <NavLink component="button" label="All channels" active={channel === ''} onClick={() => choose('')} />
            {channels.data?.map((c) => (
              <NavLink
                key={c.name}
                component="button"
                label={c.name}
                description={c.type === 'direct' ? 'Direct' : humanize(c.type)}
                styles={{ description: { color: 'inherit', opacity: 1 } }}
                active={channel === c.name}
                onClick={() => choose(c.name)}
                aria-current={channel === c.name ? 'page' : undefined}
              />
            ))}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8, lg: 9 }}>
          <Title order={2} size="h4" mb="xs">
            {channel || 'All channels'}
          </Title>
          {body}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
