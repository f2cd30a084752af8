import { Badge, Button, Group, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone, notifyError } from '../../app/errors';
import { formatDateTime, humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import type { Agent } from './agentText';
import { ListPager } from '../../components/ListPager';

type Entry = Schemas['MemoryEntry'];
type Category = Entry['category'];

const PAGE_SIZE = 20;
const CATEGORIES: Category[] = ['working', 'episodic', 'semantic', 'procedural', 'social'];

function MemoryItem({ entry, onDelete, deleting }: { entry: Entry; onDelete?: () => void; deleting: boolean }) {
  return (
    <Paper withBorder p="sm" component="li">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Text size="sm">{entry.content}</Text>
          <Group gap="xs">
            <Badge size="xs" variant="light">
              {humanize(entry.category)}
            </Badge>
            <Text size="xs" c="dimmed">
              {humanize(entry.level)} · {formatDateTime(entry.created_at)}
              {entry.relevance_score !== undefined ? ` · relevance ${entry.relevance_score.toFixed(2)}` : ''}
              {entry.archive_id ? ' · archived' : ''}
            </Text>
          </Group>
        </Stack>
        {onDelete && !entry.archive_id ? (
          <Button
            size="xs"
            color="red"
            variant="subtle"
            aria-label={`Delete the memory “${entry.content.slice(0, 40)}”`}
            style={{ flexShrink: 0 }}
            loading={deleting}
            onClick={onDelete}
          >
            Delete
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}

/** An agent's memories: newest first and paged with a category filter, or the best matches of a search. */
export function MemoriesPanel({ agent }: { agent: Agent }) {
  const client = useQueryClient();
  const { me } = useSession();
  const manage = can(me.role, 'manage');
  const [category, setCategory] = useState<Category | ''>('');
  const [offset, setOffset] = useState(0);
  const [query, setQuery] = useState('');
  const path = { params: { path: { agent_name: agent.name } } };
  const list = useQuery({
    queryKey: ['agents', 'detail', agent.name, 'memories', category, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/agents/{agent_name}/memories', {
          params: {
            path: { agent_name: agent.name },
            query: { offset, limit: PAGE_SIZE, ...(category ? { category } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const search = useMutation({
    mutationFn: (q: string) =>
      unwrap(
        api.POST('/api/v1/agents/{agent_name}/memories/search', {
          ...path,
          body: { query: q, limit: PAGE_SIZE, ...(category ? { category } : {}) },
        }),
      ),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.DELETE('/api/v1/agents/{agent_name}/memories/{memory_id}', {
          params: { path: { agent_name: agent.name, memory_id: id } },
        }),
      ),
    onSuccess: () => {
      notifyDone('The memory was deleted');
      if (search.data) {
        search.mutate(query.trim());
      }
      void client.invalidateQueries({ queryKey: ['agents', 'detail', agent.name, 'memories'] });
    },
    onError: (error) => notifyError(error, 'The memory was not deleted'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (query.trim()) {
      search.mutate(query.trim());
    } else {
      search.reset();
    }
  };
  const shown = search.data ?? list.data?.items;
  const item = (entry: Entry) => (
    <MemoryItem
      key={entry.id}
      entry={entry}
      deleting={remove.isPending && remove.variables === entry.id}
      onDelete={manage ? () => remove.mutate(entry.id) : undefined}
    />
  );

  return (
    <Stack gap="sm">
      <form onSubmit={submit} role="search" aria-label={`Search the memories of ${agent.name}`}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="What the agent learned about…"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            miw={280}
          />
          <NativeSelect
            label="Category"
            value={category}
            onChange={(e) => {
              setCategory(e.currentTarget.value as Category | '');
              setOffset(0);
              search.reset();
            }}
            data={[{ value: '', label: 'Any' }, ...CATEGORIES.map((c) => ({ value: c, label: humanize(c) }))]}
          />
          <Button type="submit" loading={search.isPending}>
            Search memories
          </Button>
          {search.data ? (
            <Button
              variant="default"
              onClick={() => {
                setQuery('');
                search.reset();
              }}
            >
              Show all
            </Button>
          ) : null}
        </Group>
      </form>
      {search.error ? <ErrorNotice error={search.error} title="The search failed" /> : null}
      {list.error && !search.data ? <ErrorNotice error={list.error} title="The memories could not be loaded" /> : null}
      {!shown && !list.error ? <Loading label="Loading the memories" /> : null}
      {shown && shown.length === 0 ? (
        <Empty title={search.data ? 'No memory matches' : 'No memories yet'}>
          {search.data
            ? 'Nothing the agent remembers is close to these words.'
            : 'What the agent learns from its tasks is kept here when a memory store is wired.'}
        </Empty>
      ) : null}
      {shown && shown.length > 0 ? (
        <Stack
          component="ul"
          gap="xs"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={search.data ? 'Matching memories, best first' : 'Memories, newest first'}
        >
          {shown.map(item)}
        </Stack>
      ) : null}
      {!search.data && list.data ? (
        <ListPager
          total={list.data.total}
          offset={offset}
          limit={PAGE_SIZE}
          onChange={setOffset}
          label="Pages of memories"
        />
      ) : null}
    </Stack>
  );
}
