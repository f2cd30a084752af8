import { Anchor, Badge, Group, Pagination, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import { type Schemas, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime, humanize, relativeTime } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import type { TaskFilters } from './TaskBoard';
import { PRIORITY_LABELS, projectName, STATUS_COLORS, STATUS_LABELS, useProjects } from './taskModel';

export const LIST_PAGE = 50;

/** Every task matching the filters, a page of 50 at a time (the API's offset and limit). */
export function TaskList({
  filters,
  page,
  onPage,
}: {
  filters: TaskFilters;
  page: number;
  onPage: (page: number) => void;
}) {
  const projects = useProjects();
  const offset = (page - 1) * LIST_PAGE;
  const list = useQuery({
    queryKey: ['tasks', 'list', filters.status, filters.project, filters.assignee, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/tasks', {
          params: {
            query: {
              // Empty: every status (the API's default is created only).
              status: (filters.status ?? '') as Schemas['Task']['status'],
              ...(filters.project ? { project: filters.project } : {}),
              ...(filters.assignee ? { assigned_to: filters.assignee } : {}),
              offset,
              limit: LIST_PAGE,
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  if (list.error) {
    return <ErrorNotice error={list.error} title="The tasks could not be loaded" />;
  }
  if (!list.data) {
    return <Loading label="Loading tasks" />;
  }
  const { items, total } = list.data;
  if (total === 0) {
    const filtered = Boolean(filters.status || filters.project || filters.assignee);
    return (
      <Empty title={filtered ? 'No tasks match these filters' : 'No tasks yet'}>
        {filtered
          ? 'Clear a filter to see more tasks.'
          : 'Tasks appear here when someone creates one with New task, or when agents split work into subtasks.'}
      </Empty>
    );
  }
  const pages = Math.max(1, Math.ceil(total / LIST_PAGE));

  return (
    <>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover aria-busy={list.isFetching}>
          <Table.Caption>{`Tasks ${offset + 1}–${offset + items.length} of ${total}`}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Title</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Priority</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Assignee</Table.Th>
              <Table.Th scope="col">Project</Table.Th>
              <Table.Th scope="col">Updated</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((task) => (
              <Table.Tr key={task.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/tasks/${task.id}`} fw={600} size="sm">
                    {task.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[task.status]} variant="dot">
                    {STATUS_LABELS[task.status]}
                  </Badge>
                </Table.Td>
                <Table.Td>{PRIORITY_LABELS[task.priority]}</Table.Td>
                <Table.Td>{humanize(task.type)}</Table.Td>
                <Table.Td>
                  {task.assigned_to ?? (
                    <Text span size="sm" c="dimmed">
                      Unassigned
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{projectName(projects.data?.items, task.project)}</Table.Td>
                <Table.Td>
                  <time dateTime={task.updated_at} title={formatDateTime(task.updated_at)}>
                    {relativeTime(task.updated_at)}
                  </time>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Group component="nav" aria-label="Pages of tasks" justify="center" mt="md">
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPage}
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            getControlProps={(control) => ({ 'aria-label': `${humanize(control)} page` })}
          />
        </Group>
      ) : null}
    </>
  );
}
