import { Button, Group, SegmentedControl, Select } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { BoardHint, TaskBoard, type TaskFilters } from './TaskBoard';
import { NewTaskDialog } from './TaskDialogs';
import { TaskList } from './TaskList';
import { isStatus, STATUS_LABELS, STATUSES, useAgents, useProjects } from './taskModel';

type View = 'board' | 'list';

const STATUS_OPTIONS = STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));

/** The tasks of the company: a board by status or a paged list, filtered; view and filters live in the URL. */
export default function Tasks() {
  const { me } = useSession();
  const canWrite = can(me.role, 'write');
  const [params, setParams] = useSearchParams();
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const projects = useProjects();
  const agents = useAgents();

  const view: View = params.get('view') === 'list' ? 'list' : 'board';
  const status = params.get('status');
  const filters: TaskFilters = useMemo(
    () => ({
      status: isStatus(status) ? status : null,
      project: params.get('project') || null,
      assignee: params.get('assignee') || null,
    }),
    [status, params],
  );
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  /** Sets (or, with null, removes) query parameters; a changed filter goes back to page 1. */
  const update = (changes: Record<string, string | null>) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') {
            next.delete(key);
          } else {
            next.set(key, value);
          }
        }
        if (!('page' in changes)) {
          next.delete('page');
        }
        return next;
      },
      { replace: true },
    );
  };

  const projectOptions = useMemo(
    () => (projects.data?.items ?? []).map((p) => ({ value: p.id, label: p.name })),
    [projects.data],
  );
  const agentOptions = useMemo(
    () => (agents.data?.items ?? []).map((a) => ({ value: a.name, label: a.name })),
    [agents.data],
  );
  // A filter set by a link may name something the lists do not (yet) hold: keep it selectable.
  const withCurrent = (options: Array<{ value: string; label: string }>, value: string | null) =>
    value && !options.some((o) => o.value === value) ? [...options, { value, label: value }] : options;

  return (
    <div>
      <PageHeader
        title="Tasks"
        description="The work of the company's agents, by status."
        actions={canWrite ? <Button onClick={openCreate}>New task</Button> : null}
      />
      <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
        <SegmentedControl
          aria-label="View"
          value={view}
          onChange={(value) => update({ view: value === 'list' ? 'list' : null, page: null })}
          data={[
            { value: 'board', label: 'Board' },
            { value: 'list', label: 'List' },
          ]}
        />
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Status"
            placeholder="All statuses"
            data={STATUS_OPTIONS}
            value={filters.status}
            onChange={(value) => update({ status: value })}
            clearable
            w={170}
          />
          <Select
            label="Project"
            placeholder={projects.isPending ? 'Loading…' : 'All projects'}
            data={withCurrent(projectOptions, filters.project)}
            value={filters.project}
            onChange={(value) => update({ project: value })}
            clearable
            searchable
            nothingFoundMessage="No project by that name"
            w={200}
          />
          <Select
            label="Assignee"
            placeholder={agents.isPending ? 'Loading…' : 'Anyone'}
            data={withCurrent(agentOptions, filters.assignee)}
            value={filters.assignee}
            onChange={(value) => update({ assignee: value })}
            clearable
            searchable
            nothingFoundMessage="No agent by that name"
            w={200}
          />
        </Group>
      </Group>
      {view === 'board' ? (
        <>
          <BoardHint canWrite={canWrite} />
          <TaskBoard
            key={`${filters.status}|${filters.project}|${filters.assignee}`}
            filters={filters}
            canWrite={canWrite}
          />
        </>
      ) : (
        <TaskList filters={filters} page={page} onPage={(next) => update({ page: next > 1 ? String(next) : null })} />
      )}
      {canWrite ? <NewTaskDialog opened={creating} onClose={closeCreate} /> : null}
    </div>
  );
}
