import { Anchor, Badge, Button, Grid, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';

import { unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime, formatMoney, humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { CoordinateDialog } from './CoordinateDialog';
import { DeleteTaskDialog, EditTaskDialog, TransitionDialog } from './TaskDialogs';
import {
  ApprovalsSection,
  ArtifactsSection,
  CostSection,
  Moment,
  RunsSection,
  Section,
  useTaskCosts,
} from './TaskDetailSections';
import {
  PRIORITY_LABELS,
  projectName,
  STATUS_COLORS,
  STATUS_LABELS,
  type Task,
  type TaskStatus,
  TRANSITIONS,
  useProjects,
} from './taskModel';

/** One task: its fields and status, its runs with their model and tool calls, cost, artifacts and pending approvals. */
export default function TaskDetail() {
  const { taskId = '' } = useParams();
  const { me } = useSession();
  const canWrite = can(me.role, 'write');
  const navigate = useNavigate();
  const task = useQuery({
    queryKey: ['tasks', 'detail', taskId],
    queryFn: () => unwrap(api.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: taskId } } })),
  });
  const costs = useTaskCosts(taskId);
  const currency = costs.data?.currency ?? 'USD';

  const [editing, edit] = useDisclosure(false);
  const [deleting, del] = useDisclosure(false);
  const [coordinating, coordinate] = useDisclosure(false);
  const [moving, setMoving] = useState<{ target: TaskStatus | null } | null>(null);

  const back = (
    <Anchor component={Link} to="/tasks" size="sm" mb="xs" display="inline-block">
      ← All tasks
    </Anchor>
  );

  if (task.error) {
    return (
      <div>
        {back}
        <PageHeader title="Task" />
        <ErrorNotice error={task.error} title="This task could not be loaded" />
      </div>
    );
  }
  if (!task.data) {
    return (
      <div>
        {back}
        <Loading label="Loading the task" />
      </div>
    );
  }
  const t = task.data;
  const targets = TRANSITIONS[t.status];
  const movable = targets.filter((s) => s !== 'cancelled');

  return (
    <div>
      {back}
      <PageHeader
        title={t.title}
        description={`ID ${t.id}`}
        actions={
          canWrite ? (
            <>
              <Button variant="default" onClick={edit.open}>
                Edit
              </Button>
              {movable.length > 0 ? <Button onClick={() => setMoving({ target: null })}>Move…</Button> : null}
              {t.status === 'created' ? (
                <Button variant="light" onClick={coordinate.open}>
                  Coordinate
                </Button>
              ) : null}
              {targets.includes('cancelled') ? (
                <Button variant="light" color="red" onClick={() => setMoving({ target: 'cancelled' })}>
                  Cancel task
                </Button>
              ) : null}
              <Button variant="subtle" color="red" onClick={del.open}>
                Delete
              </Button>
            </>
          ) : null
        }
      />
      <Group gap="xs" mb="md">
        <Badge color={STATUS_COLORS[t.status]} variant="dot" size="lg">
          {STATUS_LABELS[t.status]}
        </Badge>
        <Badge color="gray" variant="default" size="lg">
          {PRIORITY_LABELS[t.priority]} priority
        </Badge>
      </Group>

      <Stack gap="md">
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="md">
              <Section title="Description" id="task-description">
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {t.description}
                </Text>
                {t.acceptance_criteria.length > 0 ? (
                  <>
                    <Title order={3} size="h6" mt="md" mb={4}>
                      Acceptance criteria
                    </Title>
                    <List size="sm" spacing={4}>
                      {t.acceptance_criteria.map((criterion, i) => (
                        <List.Item key={i}>
                          {criterion.met ? 'Met: ' : 'Not met: '}
                          {criterion.description}
                        </List.Item>
                      ))}
                    </List>
                  </>
                ) : null}
                <Title order={3} size="h6" mt="md" mb={4}>
                  Result
                </Title>
                {t.result ? (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {t.result}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    No result yet: it is recorded when a run completes the task.
                  </Text>
                )}
                {t.output_withheld ? (
                  <Text size="sm" c="red.9" mt={4}>
                    The output scan withheld the final answer.
                  </Text>
                ) : null}
              </Section>
              <StatusTimeline task={t} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <TaskFacts task={t} currency={currency} />
          </Grid.Col>
        </Grid>
        <RunsSection task={t} />
        <CostSection costs={costs} />
        <ArtifactsSection taskId={t.id} />
        <ApprovalsSection taskId={t.id} />
      </Stack>

      {canWrite ? (
        <>
          <EditTaskDialog task={t} opened={editing} onClose={edit.close} />
          <TransitionDialog task={moving ? t : null} initialTarget={moving?.target} onClose={() => setMoving(null)} />
          <DeleteTaskDialog
            task={t}
            opened={deleting}
            onClose={del.close}
            onDeleted={() => void navigate('/tasks', { replace: true })}
          />
          {t.status === 'created' ? (
            <CoordinateDialog task={t} opened={coordinating} onClose={coordinate.close} currency={currency} />
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group component="div" gap="xs" wrap="nowrap" align="flex-start">
      <Text component="dt" size="sm" c="dimmed" w={130} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function TaskLinks({ ids }: { ids: readonly string[] }) {
  if (ids.length === 0) {
    return <>—</>;
  }
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 ? ', ' : null}
          <Anchor component={Link} to={`/tasks/${id}`} size="sm">
            {id}
          </Anchor>
        </span>
      ))}
    </>
  );
}

function TaskFacts({ task, currency }: { task: Task; currency: string }) {
  const projects = useProjects();
  return (
    <Section title="Details" id="task-details">
      <Stack component="dl" gap={6} m={0}>
        <Field label="Status">
          {STATUS_LABELS[task.status]}
          {task.status_reason ? ` — ${task.status_reason}` : ''}
        </Field>
        <Field label="Assignee">
          {task.assigned_to ? (
            <Anchor component={Link} to={`/agents/${encodeURIComponent(task.assigned_to)}`} size="sm">
              {task.assigned_to}
            </Anchor>
          ) : (
            'Unassigned'
          )}
        </Field>
        <Field label="Project">{projectName(projects.data?.items, task.project)}</Field>
        <Field label="Type">{humanize(task.type)}</Field>
        <Field label="Complexity">{humanize(task.estimated_complexity)}</Field>
        <Field label="Created by">{task.created_by}</Field>
        <Field label="Budget limit">{task.budget_limit > 0 ? formatMoney(task.budget_limit, currency) : 'None'}</Field>
        <Field label="Deadline">{formatDateTime(task.deadline)}</Field>
        <Field label="Retries">
          {task.retry_count} of {task.max_retries}
        </Field>
        <Field label="Reviewers">{task.reviewers.length > 0 ? task.reviewers.join(', ') : '—'}</Field>
        <Field label="Depends on">
          <TaskLinks ids={task.dependencies} />
        </Field>
        <Field label="Parent task">
          <TaskLinks ids={task.parent_task_id ? [task.parent_task_id] : []} />
        </Field>
        {task.delegation_chain.length > 0 ? (
          <Field label="Delegated by">{task.delegation_chain.join(' → ')}</Field>
        ) : null}
        <Field label="Coordination">{humanize(task.coordination_topology)}</Field>
        <Field label="Version">{task.version}</Field>
      </Stack>
    </Section>
  );
}

/** Where the task stands and when it got there: the moments the API keeps for it. */
function StatusTimeline({ task }: { task: Task }) {
  const moments: Array<{ label: string; at: string | null; note?: string }> = [
    { label: 'Created', at: task.created_at, note: `by ${task.created_by}` },
    { label: 'Started', at: task.started_at },
    {
      label: task.status === 'cancelled' ? 'Cancelled' : 'Completed',
      at: task.completed_at,
      note: task.status === 'cancelled' && task.status_reason ? task.status_reason : undefined,
    },
    { label: `Last change (now ${STATUS_LABELS[task.status].toLowerCase()})`, at: task.updated_at },
  ];
  return (
    <Section title="Status history" id="task-history">
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Step</Table.Th>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Note</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {moments.map((m) => (
            <Table.Tr key={m.label}>
              <Table.Td>{m.label}</Table.Td>
              <Table.Td>{m.at ? <Moment iso={m.at} /> : 'Not yet'}</Table.Td>
              <Table.Td>{m.note ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="xs">
        Each run's start and finish, with its model and tool calls, is listed under Runs.
      </Text>
    </Section>
  );
}
