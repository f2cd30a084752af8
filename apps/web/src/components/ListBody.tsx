import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { ErrorNotice } from '../app/errors';
import { Empty } from './Empty';
import { ListPager } from './ListPager';
import { Loading } from './Loading';

/** A page of a list as the API pages it: the items and how many there are in all. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

/**
 * The body of a list paged through the API, in its four states: the error with its code, loading
 * (announced), empty (saying what would fill it), or a named table of the page's rows with a pager.
 */
export function ListBody<T>({
  list,
  label,
  errorTitle,
  loadingLabel,
  emptyTitle,
  emptyText,
  emptyLevel = 2,
  minWidth = 720,
  highlightOnHover = false,
  head,
  row,
  pager,
}: {
  /** The list's query: its error, or its data once there (undefined while loading). */
  list: { error: unknown; data: ListPage<T> | undefined };
  /** The table's accessible name, e.g. "Backups". */
  label: string;
  errorTitle: string;
  loadingLabel: string;
  emptyTitle: string;
  emptyText?: ReactNode;
  /** The empty state's heading level: 2 for a list directly under the page's title (the default). */
  emptyLevel?: 2 | 3 | 4;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth?: number;
  highlightOnHover?: boolean;
  /** The header cells (Table.Th). */
  head: ReactNode;
  /** One row (Table.Tr, keyed) for each item of the page. */
  row: (item: T) => ReactNode;
  pager: { offset: number; limit: number; label: string; onChange: (offset: number) => void };
}) {
  if (list.error) {
    return <ErrorNotice error={list.error} title={errorTitle} />;
  }
  if (!list.data) {
    return <Loading label={loadingLabel} />;
  }
  if (list.data.total === 0) {
    return (
      <Empty title={emptyTitle} level={emptyLevel}>
        {emptyText}
      </Empty>
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="xs" highlightOnHover={highlightOnHover} aria-label={label}>
          <Table.Thead>
            <Table.Tr>{head}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>{list.data.items.map(row)}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPager
        total={list.data.total}
        offset={pager.offset}
        limit={pager.limit}
        label={pager.label}
        onChange={pager.onChange}
      />
    </>
  );
}

/** The list offset kept in the address (`?offset=`), so a page of a list can be linked and reloaded. */
export function useOffsetParam(): [number, (offset: number) => void] {
  const [params, setParams] = useSearchParams();
  const offset = Number(params.get('offset') ?? 0) || 0;
  const setOffset = (next: number) => {
    const copy = new URLSearchParams(params);
    copy.set('offset', String(next));
    setParams(copy);
  };
  return [offset, setOffset];
}
