import { Button, Text } from '@mantine/core';
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { type DragEvent, memo, useCallback, useRef, useState } from 'react';
import { Link } from 'react-router';

import { type PageOf, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyError } from '../../app/errors';
import { Empty } from '../../components/Empty';
import classes from './TaskBoard.module.css';
import { needsDetails, TransitionDialog, useMoveTask } from './TaskDialogs';
import {
  canMove,
  PRIORITY_LABELS,
  STATUS_COLORS,
  STATUS_LABELS,
  STATUSES,
  type Task,
  type TaskStatus,
  TRANSITIONS,
} from './taskModel';

/** Cards a column shows at first, and how many more each "Show more" adds. */
export const BOARD_PAGE = 50;
/** The most the API returns in one page. */
const API_MAX_LIMIT = 200;

export interface TaskFilters {
  status: TaskStatus | null;
  project: string | null;
  assignee: string | null;
}

/** The first `count` tasks of one status (in pages of at most 200, read at once). */
async function fetchColumn(status: TaskStatus, filters: TaskFilters, count: number): Promise<PageOf<Task>> {
  const query = {
    status,
    ...(filters.project ? { project: filters.project } : {}),
    ...(filters.assignee ? { assigned_to: filters.assignee } : {}),
  };
  const offsets: number[] = [];
  for (let offset = 0; offset < count; offset += API_MAX_LIMIT) {
    offsets.push(offset);
  }
  const pages = await Promise.all(
    offsets.map((offset) =>
      unwrapPage(
        api.GET('/api/v1/tasks', {
          params: { query: { ...query, offset, limit: Math.min(API_MAX_LIMIT, count - offset) } },
        }),
      ),
    ),
  );
  return { items: pages.flatMap((page) => page.items), total: pages[0]?.total ?? 0, offset: 0, limit: count };
}

type DropState = 'none' | 'allowed' | 'refused' | 'over';

/**
 * The board: one column per status, each read on its own (the first 50, then 50 more at a time),
 * so a company with thousands of tasks renders only what is on screen. Cards are plain elements,
 * memoised; a card moves by drag and drop onto another column or by its Move button.
 */
export function TaskBoard({ filters, canWrite }: { filters: TaskFilters; canWrite: boolean }) {
  const statuses = filters.status ? [filters.status] : STATUSES;
  const [shown, setShown] = useState<Partial<Record<TaskStatus, number>>>({});
  const columns = useQueries({
    queries: statuses.map((status) => {
      const count = shown[status] ?? BOARD_PAGE;
      return {
        queryKey: ['tasks', 'board', status, filters.project, filters.assignee, count],
        queryFn: () => fetchColumn(status, filters, count),
        placeholderData: keepPreviousData,
      };
    }),
  });

  const move = useMoveTask();
  const [dragging, setDragging] = useState<Task | null>(null);
  const [over, setOver] = useState<TaskStatus | null>(null);
  const [dialog, setDialog] = useState<{ task: Task; target: TaskStatus | null } | null>(null);
  const draggingRef = useRef<Task | null>(null);

  const onDragStart = useCallback((event: DragEvent<HTMLElement>, task: Task) => {
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', task.id);
    draggingRef.current = task;
    setDragging(task);
  }, []);
  const onDragEnd = useCallback(() => {
    draggingRef.current = null;
    setDragging(null);
    setOver(null);
  }, []);
  const onMoveRequest = useCallback((task: Task) => setDialog({ task, target: null }), []);
  const onShowMore = useCallback(
    (status: TaskStatus) =>
      setShown((previous) => ({ ...previous, [status]: (previous[status] ?? BOARD_PAGE) + BOARD_PAGE })),
    [],
  );
  const { mutate } = move;
  const onDrop = useCallback(
    (target: TaskStatus) => {
      const task = draggingRef.current;
      draggingRef.current = null;
      setDragging(null);
      setOver(null);
      if (!task || !canMove(task.status, target)) {
        return;
      }
      if (needsDetails(task, target)) {
        setDialog({ task, target });
      } else {
        mutate({ task, target }, { onError: (error) => notifyError(error, `“${task.title}” did not move`) });
      }
    },
    [mutate],
  );

  const allLoaded = columns.every((column) => column.data !== undefined);
  const total = columns.reduce((sum, column) => sum + (column.data?.total ?? 0), 0);
  const filtered = Boolean(filters.status || filters.project || filters.assignee);

  return (
    <>
      {allLoaded && total === 0 ? (
        <Empty title={filtered ? 'No tasks match these filters' : 'No tasks yet'}>
          {filtered
            ? 'Clear a filter to see more of the board.'
            : 'Tasks appear here when someone creates one with New task, or when agents split work into subtasks.'}
        </Empty>
      ) : null}
      <div className={classes.board} aria-busy={!allLoaded}>
        {statuses.map((status, index) => {
          const column = columns[index];
          let drop: DropState = 'none';
          if (dragging) {
            drop = dragging.status === status ? 'none' : canMove(dragging.status, status) ? 'allowed' : 'refused';
            if (drop === 'allowed' && over === status) {
              drop = 'over';
            }
          }
          return (
            <BoardColumn
              key={status}
              status={status}
              page={column?.data}
              error={column?.error ?? null}
              fetching={column?.isFetching ?? false}
              canWrite={canWrite}
              drop={drop}
              onDragStart={onDragStart}
              onDragEnd={onDragEnd}
              onDragEnter={setOver}
              onDrop={onDrop}
              onMoveRequest={onMoveRequest}
              onShowMore={onShowMore}
            />
          );
        })}
      </div>
      <TransitionDialog task={dialog?.task ?? null} initialTarget={dialog?.target} onClose={() => setDialog(null)} />
    </>
  );
}

interface ColumnProps {
  status: TaskStatus;
  page: PageOf<Task> | undefined;
  error: unknown;
  fetching: boolean;
  canWrite: boolean;
  drop: DropState;
  onDragStart: (event: DragEvent<HTMLElement>, task: Task) => void;
  onDragEnd: () => void;
  onDragEnter: (status: TaskStatus) => void;
  onDrop: (status: TaskStatus) => void;
  onMoveRequest: (task: Task) => void;
  onShowMore: (status: TaskStatus) => void;
}

const DROP_CLASS: Record<DropState, string | undefined> = {
  none: undefined,
  allowed: classes.dropAllowed,
  refused: classes.dropRefused,
  over: classes.dropOver,
};

const BoardColumn = memo(function BoardColumn({
  status,
  page,
  error,
  fetching,
  canWrite,
  drop,
  onDragStart,
  onDragEnd,
  onDragEnter,
  onDrop,
  onMoveRequest,
  onShowMore,
}: ColumnProps) {
  const headingId = `tasks-column-${status}`;
  const accepts = drop === 'allowed' || drop === 'over';
  const left = page ? page.total - page.items.length : 0;
  return (
    <section
      className={[classes.column, DROP_CLASS[drop]].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
      data-status={status}
      data-testid={`column-${status}`}
      onDragOver={
        accepts
          ? (event) => {
              event.preventDefault();
              event.dataTransfer.dropEffect = 'move';
            }
          : undefined
      }
      onDragEnter={accepts ? () => onDragEnter(status) : undefined}
      onDrop={
        accepts
          ? (event) => {
              event.preventDefault();
              onDrop(status);
            }
          : undefined
      }
    >
      <div className={classes.columnHeader}>
        <h2 className={classes.columnTitle} id={headingId}>
          <span className={classes.dot} style={{ background: `var(--mantine-color-${STATUS_COLORS[status]}-6)` }} />
          {STATUS_LABELS[status]}
        </h2>
        <span className={classes.count}>
          {page ? `${page.total} task${page.total === 1 ? '' : 's'}` : fetching ? 'Loading…' : ''}
        </span>
      </div>
      {error ? (
        <div className={classes.columnNote}>
          <ErrorNotice error={error} title={`${STATUS_LABELS[status]} tasks could not be loaded`} />
        </div>
      ) : !page ? (
        <p className={classes.columnNote} role="status">
          Loading…
        </p>
      ) : page.items.length === 0 ? (
        <p className={classes.columnNote}>No {STATUS_LABELS[status].toLowerCase()} tasks.</p>
      ) : (
        <ul className={classes.cards}>
          {page.items.map((task) => (
            <TaskCard
              key={task.id}
              task={task}
              canWrite={canWrite}
              onDragStart={onDragStart}
              onDragEnd={onDragEnd}
              onMoveRequest={onMoveRequest}
            />
          ))}
        </ul>
      )}
      {left > 0 ? (
        <div className={classes.columnFooter}>
          <Button
            variant="subtle"
            size="xs"
            fullWidth
            onClick={() => onShowMore(status)}
            loading={fetching}
            aria-label={`Show more ${STATUS_LABELS[status].toLowerCase()} tasks (${left} more)`}
          >
            Show more ({left} more)
          </Button>
        </div>
      ) : null}
    </section>
  );
});

interface CardProps {
  task: Task;
  canWrite: boolean;
  onDragStart: (event: DragEvent<HTMLElement>, task: Task) => void;
  onDragEnd: () => void;
  onMoveRequest: (task: Task) => void;
}

/** One task on the board: a link named by its title, its priority and assignee, and its Move button. */
const TaskCard = memo(function TaskCard({ task, canWrite, onDragStart, onDragEnd, onMoveRequest }: CardProps) {
  const movable = canWrite && TRANSITIONS[task.status].length > 0;
  return (
    <li
      className={classes.card}
      draggable={movable}
      onDragStart={movable ? (event) => onDragStart(event, task) : undefined}
      onDragEnd={movable ? onDragEnd : undefined}
      data-task-id={task.id}
    >
      <Link to={`/tasks/${task.id}`} className={classes.title} draggable={false}>
        {task.title}
      </Link>
      <div className={classes.meta}>
        <span className={classes.facts}>{task.assigned_to ?? 'Unassigned'}</span>
      </div>
      <div className={classes.meta}>
        <span className={[classes.facts, classes.priority].join(' ')} data-priority={task.priority}>
          {PRIORITY_LABELS[task.priority]} priority
        </span>
        {movable ? (
          <button
            type="button"
            className={classes.move}
            aria-label={`Move ${task.title}`}
            onClick={() => onMoveRequest(task)}
          >
            Move
          </button>
        ) : null}
      </div>
    </li>
  );
});

/** How to move cards, for those who may. */
export function BoardHint({ canWrite }: { canWrite: boolean }) {
  return canWrite ? (
    <Text size="xs" c="dimmed" mb="xs">
      Drag a card onto another column to move it, or use its Move button. Only the moves its status allows are offered.
    </Text>
  ) : null;
}
