import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Modal,
  NativeSelect,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { formatDateTime, humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ListBody, useOffsetParam } from '../../components/ListBody';
import { formatDuration } from '../agents/AgentDetail';

type Meeting = Schemas['MeetingResponse'];
type Status = Meeting['status'];

const PAGE = 20;
const STATUSES: Status[] = ['scheduled', 'in_progress', 'completed', 'failed', 'cancelled', 'budget_exhausted'];
const STATUS_COLOR: Record<Status, string> = {
  scheduled: 'blue',
  in_progress: 'yellow',
  completed: 'green',
  failed: 'red',
  cancelled: 'gray',
  budget_exhausted: 'orange',
};

/** Tokens the meeting used, summed over its participants. */
export function tokensUsed(meeting: Meeting): number {
  return Object.values(meeting.token_usage_by_participant as Record<string, number>).reduce(
    (sum, n) => sum + (typeof n === 'number' ? n : 0),
    0,
  );
}

/** The configured meeting types a trigger can start: `coordination.meeting_types` with a trigger. */
function useTriggerTypes() {
  return useQuery({
    queryKey: ['system', 'settings', 'coordination'],
    queryFn: () => unwrap(api.GET('/api/v1/settings/{namespace}', { params: { path: { namespace: 'coordination' } } })),
    select: (entries) => {
      const raw = entries.find((e) => e.definition.key === 'meeting_types')?.value ?? '[]';
      try {
        const parsed = JSON.parse(raw) as Array<{ name?: unknown; trigger?: unknown }>;
        return parsed
          .filter((t) => typeof t.name === 'string' && typeof t.trigger === 'string')
          .map((t) => ({ name: t.name as string, trigger: t.trigger as string }));
      } catch {
        return [];
      }
    },
  });
}

function TriggerDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const types = useTriggerTypes();
  const [event, setEvent] = useState('');
  const [agenda, setAgenda] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [held, setHeld] = useState<Meeting[] | null>(null);
  const events = [...new Set(types.data?.map((t) => t.trigger) ?? [])];

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!event.trim()) {
      return;
    }
    setBusy(true);
    setError(null);
    setHeld(null);
    try {
      const lines = agenda
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const meetings: Meeting[] = await unwrap(
        api.POST('/api/v1/meetings/trigger', {
          body: { event_name: event.trim(), context: lines.length > 0 ? { agenda: lines } : {} },
        }),
      );
      setHeld(meetings);
      if (meetings.length > 0) {
        notifyDone(`${meetings.length} ${meetings.length === 1 ? 'meeting was' : 'meetings were'} held`);
      }
      await client.invalidateQueries({ queryKey: ['meetings'] });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Trigger a meeting" size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          {events.length > 0 ? (
            <NativeSelect
              label="Event"
              description="Every meeting type this event triggers is held"
              value={event}
              onChange={(e) => setEvent(e.currentTarget.value)}
              data={[
                { value: '', label: 'Choose an event…', disabled: true },
                ...events.map((ev) => ({
                  value: ev,
                  label: `${ev} (${types.data
                    ?.filter((t) => t.trigger === ev)
                    .map((t) => t.name)
                    .join(', ')})`,
                })),
              ]}
            />
          ) : (
            <TextInput
              label="Event"
              description="No meeting type with a trigger is configured (Settings, Coordination); type an event name"
              value={event}
              onChange={(e) => setEvent(e.currentTarget.value)}
            />
          )}
          <Textarea
            label="Agenda"
            description="Optional: one item a line"
            autosize
            minRows={2}
            value={agenda}
            onChange={(e) => setAgenda(e.currentTarget.value)}
          />
          {held && held.length === 0 ? (
            <Alert color="blue" variant="light" role="status">
              No meeting type is triggered by “{event}”.
            </Alert>
          ) : null}
          {held && held.length > 0 ? (
            <Alert color="green" variant="light" role="status" title="Held">
              <List size="sm">
                {held.map((m) => (
                  <List.Item key={m.meeting_id}>
                    <Anchor component={Link} to={`/meetings/${m.meeting_id}`} onClick={onClose}>
                      {m.meeting_type_name}
                    </Anchor>{' '}
                    — {humanize(m.status)}
                  </List.Item>
                ))}
              </List>
            </Alert>
          ) : null}
          {error ? <ErrorNotice error={error} title="The meeting was not held" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={busy} disabled={!event.trim()}>
              Hold the meeting
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** /meetings: the meetings held, filtered by status and type, and triggering one. */
export default function Meetings() {
  const { me } = useSession();
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') ?? '') as Status | '';
  const type = params.get('type') ?? '';
  const [offset, setOffset] = useOffsetParam();
  const [triggering, setTriggering] = useState(false);
  const [typeDraft, setTypeDraft] = useState(type);
  const list = useQuery({
    queryKey: ['meetings', 'list', status, type, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/meetings', {
          params: {
            query: { offset, limit: PAGE, ...(status ? { status } : {}), ...(type ? { meeting_type: type } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) {
      next.set(key, value);
    } else {
      next.delete(key);
    }
    next.delete('offset');
    setParams(next);
  };

  const body = (
    <ListBody
      list={list}
      label="Meetings"
      errorTitle="The meetings could not be loaded"
      loadingLabel="Loading the meetings"
      emptyTitle="No meetings yet"
      emptyText="Meetings are held on their schedule or when an event triggers them; trigger one to start."
      minWidth={720}
      head={
        <>
          <Table.Th scope="col">Meeting</Table.Th>
          <Table.Th scope="col">Status</Table.Th>
          <Table.Th scope="col">Protocol</Table.Th>
          <Table.Th scope="col">Participants</Table.Th>
          <Table.Th scope="col">Tokens used of budget</Table.Th>
          <Table.Th scope="col">Held</Table.Th>
        </>
      }
      row={(m) => (
        <Table.Tr key={m.meeting_id}>
          <Table.Td>
            <Anchor component={Link} to={`/meetings/${m.meeting_id}`}>
              {m.meeting_type_name}
            </Anchor>
          </Table.Td>
          <Table.Td>
            <Badge size="sm" variant="light" color={STATUS_COLOR[m.status]}>
              {humanize(m.status)}
            </Badge>
          </Table.Td>
          <Table.Td>{humanize(m.protocol_type)}</Table.Td>
          <Table.Td>{Object.keys(m.participant_names).length}</Table.Td>
          <Table.Td>
            {tokensUsed(m).toLocaleString('en-US')} / {m.token_budget.toLocaleString('en-US')}
          </Table.Td>
          <Table.Td>{m.minutes ? formatDateTime(m.minutes.started_at) : '—'}</Table.Td>
        </Table.Tr>
      )}
      pager={{ offset, limit: PAGE, label: 'Pages of meetings', onChange: setOffset }}
    />
  );

  return (
    <Stack>
      <PageHeader
        title="Meetings"
        description="Meetings the agents held: their minutes, decisions and the tasks they created."
        actions={can(me.role, 'write') ? <Button onClick={() => setTriggering(true)}>Trigger a meeting</Button> : null}
      />
      <Group align="flex-end" gap="sm">
        <NativeSelect
          label="Status"
          value={status}
          onChange={(e) => setParam('status', e.currentTarget.value)}
          data={[{ value: '', label: 'Any status' }, ...STATUSES.map((s) => ({ value: s, label: humanize(s) }))]}
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setParam('type', typeDraft.trim());
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput label="Meeting type" value={typeDraft} onChange={(e) => setTypeDraft(e.currentTarget.value)} />
            <Button type="submit" variant="light">
              Filter
            </Button>
          </Group>
        </form>
      </Group>
      {body}
      <TriggerDialog opened={triggering} onClose={() => setTriggering(false)} />
    </Stack>
  );
}

/** /meetings/:meetingId: the minutes — agenda, contributions, decisions, action items and tokens. */
export function MeetingDetail() {
  const { meetingId = '' } = useParams();
  const meeting = useQuery({
    queryKey: ['meetings', 'detail', meetingId],
    queryFn: () => unwrap(api.GET('/api/v1/meetings/{meeting_id}', { params: { path: { meeting_id: meetingId } } })),
  });
  // Action items become tasks of the meeting: found by the tasks that name it.
  const tasks = useQuery({
    queryKey: ['tasks', 'from-meeting', meetingId],
    queryFn: () => unwrapPage(api.GET('/api/v1/tasks', { params: { query: { offset: 0, limit: 200 } } })),
    enabled: Boolean(meeting.data?.minutes?.action_items.length),
  });
  const back = (
    <Button component={Link} to="/meetings" variant="default" size="sm">
      All meetings
    </Button>
  );
  if (meeting.error) {
    return (
      <>
        <PageHeader title="Meeting" actions={back} />
        <ErrorNotice error={meeting.error} title="The meeting could not be loaded" />
      </>
    );
  }
  if (!meeting.data) {
    return <Loading label="Loading the meeting" />;
  }
  const m = meeting.data;
  const minutes = m.minutes;
  const names = m.participant_names as Record<string, string>;
  const nameOf = (id: string | null) => (id ? (names[id] ?? id) : 'Unassigned');
  const used = tokensUsed(m);
  const taskFor = (description: string) =>
    tasks.data?.items.find(
      (t) => t.title === description.slice(0, 256) && (t.description ?? '').includes(m.meeting_id),
    );

  return (
    <Stack>
      <PageHeader
        title={m.meeting_type_name}
        description={`${humanize(m.status)} · ${humanize(m.protocol_type)}${m.meeting_duration_seconds !== null ? ` · ${formatDuration(m.meeting_duration_seconds)}` : ''}`}
        actions={back}
      />
      {m.error_message ? (
        <Alert color="red" variant="light" title="The meeting did not finish">
          {m.error_message}
        </Alert>
      ) : null}
      <Paper withBorder p="md" component="section" aria-labelledby="meeting-tokens">
        <Title order={2} size="h4" id="meeting-tokens" mb="xs">
          Token use
        </Title>
        <Text size="sm">
          {used.toLocaleString('en-US')} of the {m.token_budget.toLocaleString('en-US')} tokens budgeted
        </Text>
        <Progress
          mt={6}
          value={m.token_budget > 0 ? Math.min(100, (used / m.token_budget) * 100) : 0}
          aria-label="Tokens used of the meeting's budget"
          color={used > m.token_budget ? 'red' : undefined}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mt="sm">
          {Object.entries(m.token_usage_by_participant as Record<string, number>).map(([id, tokens]) => (
            <Text size="sm" key={id}>
              {nameOf(id)}: {tokens.toLocaleString('en-US')}
            </Text>
          ))}
        </SimpleGrid>
      </Paper>
      {minutes ? (
        <>
          <Paper withBorder p="md" component="section" aria-labelledby="meeting-summary">
            <Title order={2} size="h4" id="meeting-summary" mb="xs">
              Summary
            </Title>
            <Text size="sm">{minutes.summary || 'No summary.'}</Text>
            <Text size="xs" c="dimmed" mt={4}>
              Led by {nameOf(minutes.leader_id)} · {formatDateTime(minutes.started_at)} to{' '}
              {formatDateTime(minutes.ended_at)}
              {minutes.conflicts_detected ? ' · conflicting positions were detected' : ''}
            </Text>
            {minutes.agenda.items.length > 0 ? (
              <>
                <Text fw={600} size="sm" mt="sm">
                  Agenda: {minutes.agenda.title}
                </Text>
                <List size="sm">
                  {minutes.agenda.items.map((item, i) => (
                    <List.Item key={i}>
                      {item.title}
                      {item.description ? ` — ${item.description}` : ''}
                    </List.Item>
                  ))}
                </List>
              </>
            ) : null}
          </Paper>
          <Paper withBorder p="md" component="section" aria-labelledby="meeting-decisions">
            <Title order={2} size="h4" id="meeting-decisions" mb="xs">
              Decisions
            </Title>
            {minutes.decisions.length === 0 ? (
              <Text size="sm">No decisions were recorded.</Text>
            ) : (
              <List size="sm">
                {minutes.decisions.map((d, i) => (
                  <List.Item key={i}>{d}</List.Item>
                ))}
              </List>
            )}
          </Paper>
          <Paper withBorder p="md" component="section" aria-labelledby="meeting-actions">
            <Title order={2} size="h4" id="meeting-actions" mb="xs">
              Action items
            </Title>
            {minutes.action_items.length === 0 ? (
              <Text size="sm">No action items.</Text>
            ) : (
              <List size="sm">
                {minutes.action_items.map((item, i) => {
                  const task = taskFor(item.description);
                  return (
                    <List.Item key={i}>
                      <Badge size="xs" variant="light" mr={6}>
                        {item.priority}
                      </Badge>
                      {task ? (
                        <Anchor component={Link} to={`/tasks/${task.id}`}>
                          {item.description}
                        </Anchor>
                      ) : (
                        item.description
                      )}{' '}
                      — {nameOf(item.assignee_id)}
                    </List.Item>
                  );
                })}
              </List>
            )}
          </Paper>
          <Paper withBorder p="md" component="section" aria-labelledby="meeting-contributions">
            <Title order={2} size="h4" id="meeting-contributions" mb="xs">
              Contributions
            </Title>
            <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
              {minutes.contributions.map((c) => (
                <Paper key={`${c.turn_number}-${c.agent_id}`} withBorder p="xs" component="li">
                  <Text size="xs" c="dimmed">
                    Turn {c.turn_number} · {humanize(c.phase)} · {nameOf(c.agent_id)} ·{' '}
                    {(c.input_tokens + c.output_tokens).toLocaleString('en-US')} tokens
                  </Text>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {c.content}
                  </Text>
                </Paper>
              ))}
            </Stack>
          </Paper>
        </>
      ) : (
        <Empty title="No minutes yet">Minutes are written when the meeting completes.</Empty>
      )}
    </Stack>
  );
}
