import {
  Autocomplete,
  Button,
  Group,
  Modal,
  type ModalProps,
  NumberInput,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { humanize } from '../../app/format';
import { useSession } from '../../app/session';
import {
  ASSIGNEE_REQUIRED,
  PRIORITIES,
  PRIORITY_LABELS,
  STATUS_LABELS,
  type Task,
  type TaskPriority,
  type TaskStatus,
  type TaskType,
  TRANSITIONS,
  TYPES,
  useAgents,
  useProjects,
} from './taskModel';

/** The agents a task can go to (anyone on the roster not terminated), as picker options. */
function useAssigneeOptions() {
  const agents = useAgents();
  const options = useMemo(
    () =>
      (agents.data?.items ?? [])
        .filter((agent) => agent.status !== 'terminated')
        .map((agent) => ({ value: agent.name, label: `${agent.name} (${agent.role})` })),
    [agents.data],
  );
  return { options, loading: agents.isPending, error: agents.error };
}

const PRIORITY_OPTIONS = PRIORITIES.map((value) => ({ value, label: PRIORITY_LABELS[value] }));
const TYPE_OPTIONS = TYPES.map((value) => ({ value, label: humanize(value) }));

/**
 * The dialogs of the tasks pages: a named close button, and no scroll lock (the lock injects a style
 * element the Content-Security-Policy refuses).
 */
export function TaskModal(props: ModalProps) {
  return <Modal {...props} />;
}

/** After any write: every task view (board, list, detail) reads again. */
function useTasksChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['tasks'] });
}

// ---------------------------------------------------------------------------------------------
// New task

export function NewTaskDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated?: (task: Task) => void;
}) {
  const { me } = useSession();
  const client = useQueryClient();
  const changed = useTasksChanged();
  const projects = useProjects();
  const assignees = useAssigneeOptions();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [project, setProject] = useState('');
  const [assignee, setAssignee] = useState<string | null>(null);
  const [type, setType] = useState<TaskType>('development');
  const [priority, setPriority] = useState<TaskPriority>('medium');

  const projectNames = useMemo(() => (projects.data?.items ?? []).map((p) => p.name), [projects.data]);
  const existing = (projects.data?.items ?? []).find((p) => p.name.toLowerCase() === project.trim().toLowerCase());

  const create = useMutation({
    mutationFn: async () => {
      let projectId = existing?.id;
      if (!projectId) {
        const made = await unwrap(
          api.POST('/api/v1/projects', { body: { name: project.trim(), description: '', budget: 0 } }),
        );
        projectId = made.id;
        void client.invalidateQueries({ queryKey: ['projects'] });
      }
      return unwrap(
        api.POST('/api/v1/tasks', {
          body: {
            title: title.trim(),
            description: description.trim(),
            project: projectId,
            type,
            priority,
            created_by: me.username,
            budget_limit: 0,
            estimated_complexity: 'medium',
            max_retries: 1,
            ...(assignee ? { assigned_to: assignee } : {}),
          },
        }),
      );
    },
    onSuccess: (task) => {
      void changed();
      notifyDone(`Task “${task.title}” created`);
      reset();
      onClose();
      onCreated?.(task);
    },
  });

  const reset = () => {
    setTitle('');
    setDescription('');
    setProject('');
    setAssignee(null);
    setType('development');
    setPriority('medium');
    create.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  const projectHint = !project.trim()
    ? projectNames.length === 0
      ? 'No projects yet: type a name to create the first one.'
      : 'Choose a project, or type a new name to create it.'
    : existing
      ? `Existing project “${existing.name}”.`
      : `A new project “${project.trim()}” will be created.`;

  return (
    <TaskModal opened={opened} onClose={onClose} title="New task" size="lg">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label="Title"
            required
            maxLength={256}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            data-autofocus
          />
          <Textarea
            label="Description"
            required
            maxLength={4096}
            rows={4}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Autocomplete
            label="Project"
            required
            maxLength={128}
            data={projectNames}
            value={project}
            onChange={setProject}
            description={projectHint}
            error={projects.error ? 'The projects could not be loaded' : undefined}
          />
          <Select
            label="Assignee"
            description="Optional. Assigning an agent starts its work on the task."
            placeholder={assignees.loading ? 'Loading agents…' : 'Unassigned'}
            data={assignees.options}
            value={assignee}
            onChange={setAssignee}
            searchable
            clearable
            nothingFoundMessage="No agent by that name"
            error={assignees.error ? 'The agents could not be loaded' : undefined}
          />
          <Group grow>
            <Select
              label="Type"
              data={TYPE_OPTIONS}
              value={type}
              onChange={(value) => value && setType(value)}
              allowDeselect={false}
            />
            <Select
              label="Priority"
              data={PRIORITY_OPTIONS}
              value={priority}
              onChange={(value) => value && setPriority(value)}
              allowDeselect={false}
            />
          </Group>
          {create.error ? <ErrorNotice error={create.error} title="The task was not created" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create task
            </Button>
          </Group>
        </Stack>
      </form>
    </TaskModal>
  );
}

// ---------------------------------------------------------------------------------------------
// Edit

export function EditTaskDialog({ task, opened, onClose }: { task: Task; opened: boolean; onClose: () => void }) {
  return (
    <TaskModal opened={opened} onClose={onClose} title={`Edit “${task.title}”`} size="lg">
      {opened ? <EditTaskForm task={task} onClose={onClose} /> : null}
    </TaskModal>
  );
}

/**
 * The form starts from the task as it was when opened, and saves as a compare-and-set on that
 * version: a change made meanwhile elsewhere is refused (409, 4003) rather than overwritten.
 */
function EditTaskForm({ task: current, onClose }: { task: Task; onClose: () => void }) {
  const changed = useTasksChanged();
  const assignees = useAssigneeOptions();
  const [task] = useState(current);
  const [title, setTitle] = useState(task.title);
  const [description, setDescription] = useState(task.description);
  const [priority, setPriority] = useState<TaskPriority>(task.priority);
  const [assignee, setAssignee] = useState<string | null>(task.assigned_to);
  const [budget, setBudget] = useState<number | string>(task.budget_limit);
  // A created task takes its assignee with the move to assigned, not with an edit.
  const assignable = task.status !== 'created';
  const assigneeRequired = ASSIGNEE_REQUIRED.includes(task.status);

  const save = useMutation({
    mutationFn: () => {
      const body: Schemas['UpdateTaskRequest'] = { expected_version: task.version };
      if (title.trim() !== task.title) {
        body.title = title.trim();
      }
      if (description.trim() !== task.description) {
        body.description = description.trim();
      }
      if (priority !== task.priority) {
        body.priority = priority;
      }
      const limit = typeof budget === 'number' ? budget : Number(budget || 0);
      if (limit !== task.budget_limit) {
        body.budget_limit = limit;
      }
      if (assignable && assignee !== task.assigned_to) {
        body.assigned_to = assignee;
      }
      return unwrap(api.PATCH('/api/v1/tasks/{task_id}', { params: { path: { task_id: task.id } }, body }));
    },
    onSuccess: (saved) => {
      void changed();
      notifyDone(`Task “${saved.title}” saved`);
      onClose();
    },
  });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Title"
          required
          maxLength={256}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
        />
        <Textarea
          label="Description"
          required
          maxLength={4096}
          rows={4}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <Select
            label="Priority"
            data={PRIORITY_OPTIONS}
            value={priority}
            onChange={(value) => value && setPriority(value)}
            allowDeselect={false}
          />
          <NumberInput
            label="Budget limit"
            description="0 means no limit"
            min={0}
            decimalScale={2}
            value={budget}
            onChange={setBudget}
          />
        </Group>
        {assignable ? (
          <Select
            label="Assignee"
            description={
              assigneeRequired
                ? `A task that is ${STATUS_LABELS[task.status].toLowerCase()} needs an assignee.`
                : undefined
            }
            data={assignees.options}
            value={assignee}
            onChange={setAssignee}
            searchable
            clearable={!assigneeRequired}
            required={assigneeRequired}
            nothingFoundMessage="No agent by that name"
          />
        ) : (
          <Text size="sm" c="dimmed">
            A new task gets its assignee when it moves to Assigned.
          </Text>
        )}
        {save.error ? <ErrorNotice error={save.error} title="The changes were not saved" /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// Transition (and cancel, which is the move to cancelled with a reason)

export interface MoveRequest {
  task: Task;
  target: TaskStatus;
  assignee?: string | null;
  reason?: string;
}

/** Moves a task along the state machine; a move to cancelled goes through the cancel call. */
export function useMoveTask() {
  const changed = useTasksChanged();
  return useMutation({
    mutationFn: ({ task, target, assignee, reason }: MoveRequest) => {
      const path = { task_id: task.id };
      if (target === 'cancelled') {
        return unwrap(api.POST('/api/v1/tasks/{task_id}/cancel', { params: { path }, body: { reason: reason ?? '' } }));
      }
      return unwrap(
        api.POST('/api/v1/tasks/{task_id}/transition', {
          params: { path },
          body: {
            target_status: target,
            ...(assignee && assignee !== task.assigned_to ? { assigned_to: assignee } : {}),
          },
        }),
      );
    },
    onSuccess: (saved) => {
      void changed();
      notifyDone(`“${saved.title}” is now ${STATUS_LABELS[saved.status].toLowerCase()}`);
    },
  });
}

/** A move that needs more than the target: an assignee (to assigned without one) or a reason (cancel). */
export function needsDetails(task: Task, target: TaskStatus): boolean {
  return target === 'cancelled' || (target === 'assigned' && !task.assigned_to);
}

export function TransitionDialog({
  task,
  initialTarget,
  onClose,
}: {
  task: Task | null;
  initialTarget?: TaskStatus | null;
  onClose: () => void;
}) {
  if (!task) {
    return null;
  }
  // A fresh form for each task and target; a live refresh of the same task keeps what was entered.
  return (
    <TransitionForm
      key={`${task.id}|${initialTarget ?? ''}`}
      task={task}
      initialTarget={initialTarget}
      onClose={onClose}
    />
  );
}

function TransitionForm({
  task,
  initialTarget,
  onClose,
}: {
  task: Task;
  initialTarget?: TaskStatus | null;
  onClose: () => void;
}) {
  const assignees = useAssigneeOptions();
  const move = useMoveTask();
  const targets = TRANSITIONS[task.status];
  const [target, setTarget] = useState<TaskStatus | null>(
    initialTarget ?? (targets.length === 1 ? (targets[0] ?? null) : null),
  );
  const [assignee, setAssignee] = useState<string | null>(task.assigned_to);
  const [reason, setReason] = useState('');
  // What takes the focus: the field the chosen move still needs, else the choice of move.
  const focus = initialTarget === 'assigned' ? 'assignee' : initialTarget === 'cancelled' ? 'reason' : 'status';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target) {
      return;
    }
    move.mutate({ task, target, assignee, reason: reason.trim() }, { onSuccess: onClose });
  };

  return (
    <TaskModal opened onClose={onClose} title={`Move “${task.title}”`}>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm">
            Now: <strong>{STATUS_LABELS[task.status]}</strong>
          </Text>
          {targets.length === 0 ? (
            <Text size="sm">A {STATUS_LABELS[task.status].toLowerCase()} task is final: it cannot move.</Text>
          ) : (
            <Radio.Group
              label="New status"
              required
              value={target ?? ''}
              onChange={(value) => setTarget(value as TaskStatus)}
            >
              <Stack gap={6} mt={6}>
                {targets.map((status, i) => (
                  <Radio
                    key={status}
                    value={status}
                    label={STATUS_LABELS[status]}
                    data-autofocus={focus === 'status' && (target ? status === target : i === 0) ? true : undefined}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}
          {target === 'assigned' ? (
            <Select
              label="Assignee"
              description="A task moves to Assigned with an agent to do it; its run then starts."
              data={assignees.options}
              value={assignee}
              onChange={setAssignee}
              searchable
              required
              nothingFoundMessage="No agent by that name"
              error={assignees.error ? 'The agents could not be loaded' : undefined}
              data-autofocus={focus === 'assignee' ? true : undefined}
            />
          ) : null}
          {target === 'cancelled' ? (
            <Textarea
              data-autofocus={focus === 'reason' ? true : undefined}
              label="Reason"
              description="Kept with the task as why it was cancelled."
              required
              maxLength={4096}
              rows={3}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
          ) : null}
          {move.error ? <ErrorNotice error={move.error} title="The task did not move" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            {targets.length > 0 ? (
              <Button
                type="submit"
                loading={move.isPending}
                disabled={!target || (target === 'assigned' && !assignee) || (target === 'cancelled' && !reason.trim())}
                color={target === 'cancelled' ? 'red' : undefined}
              >
                {target === 'cancelled' ? 'Cancel task' : 'Move task'}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    </TaskModal>
  );
}

// ---------------------------------------------------------------------------------------------
// Delete

export function DeleteTaskDialog({
  task,
  opened,
  onClose,
  onDeleted,
}: {
  task: Task;
  opened: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/tasks/{task_id}', { params: { path: { task_id: task.id } } })),
    onSuccess: () => {
      client.removeQueries({ queryKey: ['tasks', 'detail', task.id] });
      void client.invalidateQueries({ queryKey: ['tasks'] });
      notifyDone(`Task “${task.title}” deleted`);
      onDeleted();
    },
  });
  return (
    <TaskModal opened={opened} onClose={onClose} title={`Delete “${task.title}”?`}>
      <Stack gap="sm">
        <Text size="sm">The task is removed for good. Its cost records and artifacts stay. This cannot be undone.</Text>
        {remove.error ? <ErrorNotice error={remove.error} title="The task was not deleted" /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep task
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            Delete task
          </Button>
        </Group>
      </Stack>
    </TaskModal>
  );
}
