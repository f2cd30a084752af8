import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
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
import { PageHeader } from '../../components/PageHeader';
import { useCompanyDepartments } from '../agents/agentQueries';
import { departmentLabel } from '../agents/agentText';
import { ListPager } from '../../components/ListPager';

type Category = Schemas['CreateOrgFactRequest']['category'];

const PAGE_SIZE = 20;
const CATEGORIES: Array<{ value: Category; label: string }> = [
  { value: 'core_policy', label: 'Core policy' },
  { value: 'adr', label: 'Architecture decision' },
  { value: 'procedure', label: 'Procedure' },
  { value: 'convention', label: 'Convention' },
];
const categoryLabel = (c: string) => CATEGORIES.find((x) => x.value === c)?.label ?? humanize(c);

function StatusPanel() {
  const status = useQuery({
    queryKey: ['memory', 'status'],
    queryFn: () => unwrap(api.GET('/api/v1/memory/status')),
    // While stored vectors are made again, the progress is read every few seconds.
    refetchInterval: (query) => (query.state.data?.reembedding.state === 'running' ? 5000 : false),
  });
  if (status.error) {
    return <ErrorNotice error={status.error} title="The memory status could not be loaded" />;
  }
  if (!status.data) {
    return <Loading label="Loading the memory status" />;
  }
  const s = status.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="memory-status-title">
      <Title order={2} size="h4" id="memory-status-title" mb="xs">
        Status
      </Title>
      {s.wired ? (
        <Text size="sm" role="status" aria-label="Memory status" mb="xs">
          Wired: the {s.backend} store
          {s.embedder_model
            ? `, embeddings by ${s.embedder_provider ? `${s.embedder_provider} / ` : ''}${s.embedder_model}${s.embedder_dims ? ` (${s.embedder_dims} dimensions)` : ''}`
            : ''}
          .
        </Text>
      ) : (
        <div role="status" aria-label="Memory status">
          <Alert color="yellow" variant="light" title="Memory is not wired" mb="xs">
            <Text size="sm">{s.reason ?? 'No memory backend is configured.'}</Text>
            {s.code ? (
              <Text size="xs" c="dimmed">
                Code {s.code}
              </Text>
            ) : null}
          </Alert>
        </div>
      )}
      {s.reembedding.state === 'running' ? <ReembeddingProgress progress={s.reembedding} /> : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Text size="sm">
          <b>{s.entries}</b> {s.entries === 1 ? 'memory' : 'memories'}
        </Text>
        <Text size="sm">
          <b>{s.indexed}</b> in this replica’s index
        </Text>
        <Text size="sm">
          <b>{s.org_facts}</b> organization {s.org_facts === 1 ? 'fact' : 'facts'}
        </Text>
      </SimpleGrid>
    </Paper>
  );
}

/** A re-embedding under way: how far it is, and which embedder retrieval uses meanwhile. */
function ReembeddingProgress({ progress }: { progress: Schemas['MemoryStatus']['reembedding'] }) {
  const percent = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <Stack gap={4} mb="sm">
      <Text size="sm" fw={600} id="memory-reembedding-label">
        Embedding the stored memories again{progress.target_embedder ? ` with ${progress.target_embedder}` : ''}:{' '}
        {progress.done.toLocaleString()} of {progress.total.toLocaleString()}
      </Text>
      <Progress.Root>
        <Progress.Section value={percent} aria-labelledby="memory-reembedding-label" />
      </Progress.Root>
      <Text size="xs" c="dimmed">
        Until it is done, retrieval uses the vectors of {progress.retrieval_embedder ?? 'the previous embedder'}.
      </Text>
    </Stack>
  );
}

function AddFactForm() {
  const client = useQueryClient();
  const { me } = useSession();
  const departments = useCompanyDepartments();
  const [category, setCategory] = useState<Category>('convention');
  const [content, setContent] = useState('');
  const [department, setDepartment] = useState('');
  const add = useMutation({
    mutationFn: (body: Schemas['CreateOrgFactRequest']) => unwrap(api.POST('/api/v1/memory/org', { body })),
    onSuccess: () => {
      setContent('');
      notifyDone('The fact was added');
      void client.invalidateQueries({ queryKey: ['memory'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ category, content: content.trim(), ...(department ? { department } : {}) });
  };
  return (
    <form onSubmit={submit} aria-label="Add a fact">
      <Stack gap="sm">
        <Group grow align="flex-start" wrap="wrap">
          <NativeSelect
            label="Category"
            value={category}
            onChange={(e) => setCategory(e.currentTarget.value as Category)}
            data={CATEGORIES}
          />
          {me.role === 'ceo' ? (
            <NativeSelect
              label="Applies to"
              value={department}
              onChange={(e) => setDepartment(e.currentTarget.value)}
              data={[
                { value: '', label: 'The whole company' },
                ...(departments.data ?? []).map((d) => ({ value: d.name, label: departmentLabel(d.name) })),
              ]}
            />
          ) : null}
        </Group>
        <Textarea
          label="Fact"
          required
          autosize
          minRows={2}
          value={content}
          onChange={(e) => setContent(e.currentTarget.value)}
        />
        {add.error ? <ErrorNotice error={add.error} title="The fact was not added" /> : null}
        <Group>
          <Button type="submit" loading={add.isPending}>
            Add fact
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function OrgFacts() {
  const client = useQueryClient();
  const { me } = useSession();
  const manage = can(me.role, 'manage');
  const [category, setCategory] = useState<Category | ''>('');
  const [offset, setOffset] = useState(0);
  const facts = useQuery({
    queryKey: ['memory', 'org', category, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/memory/org', {
          params: { query: { offset, limit: PAGE_SIZE, ...(category ? { category } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/v1/memory/org/{fact_id}', { params: { path: { fact_id: id } } })),
    onSuccess: () => {
      notifyDone('The fact was deleted');
      void client.invalidateQueries({ queryKey: ['memory'] });
    },
    onError: (error) => notifyError(error, 'The fact was not deleted'),
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="org-facts-title">
      <Group justify="space-between" align="flex-end" mb="sm">
        <Title order={2} size="h4" id="org-facts-title">
          Organization facts
        </Title>
        <NativeSelect
          label="Show the category"
          value={category}
          onChange={(e) => {
            setCategory(e.currentTarget.value as Category | '');
            setOffset(0);
          }}
          data={[{ value: '', label: 'Any' }, ...CATEGORIES]}
        />
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        What every agent (or every agent of a department) is told at the start of a task.
      </Text>
      {manage ? <AddFactForm /> : null}
      {facts.error ? <ErrorNotice error={facts.error} title="The facts could not be loaded" /> : null}
      {facts.isPending ? <Loading label="Loading the facts" /> : null}
      {facts.data && facts.data.items.length === 0 ? (
        <Empty title="No organization facts">Policies, decisions, procedures and conventions appear here.</Empty>
      ) : null}
      {facts.data && facts.data.items.length > 0 ? (
        <>
          <Table.ScrollContainer minWidth={640} mt="md">
            <Table striped aria-label="Organization facts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fact</Table.Th>
                  <Table.Th>Category</Table.Th>
                  <Table.Th>Applies to</Table.Th>
                  <Table.Th>Added</Table.Th>
                  {manage ? <Table.Th>Actions</Table.Th> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {facts.data.items.map((f) => (
                  <Table.Tr key={f.id}>
                    <Table.Td>{f.content}</Table.Td>
                    <Table.Td>{categoryLabel(f.category)}</Table.Td>
                    <Table.Td>{f.department ? departmentLabel(f.department) : 'The whole company'}</Table.Td>
                    <Table.Td>
                      {formatDateTime(f.created_at)} by {f.author}
                    </Table.Td>
                    {manage ? (
                      <Table.Td>
                        <Button
                          size="xs"
                          color="red"
                          variant="subtle"
                          aria-label={`Delete the fact “${f.content.slice(0, 40)}”`}
                          loading={remove.isPending && remove.variables === f.id}
                          onClick={() => remove.mutate(f.id)}
                        >
                          Delete
                        </Button>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPager
            total={facts.data.total}
            offset={offset}
            limit={PAGE_SIZE}
            onChange={setOffset}
            label="Pages of organization facts"
          />
        </>
      ) : null}
    </Paper>
  );
}

export default function Memory() {
  return (
    <>
      <PageHeader
        title="Memory"
        description="The memory store’s state and the organization’s facts; an agent’s own memories are on its profile"
      />
      <Stack gap="lg">
        <StatusPanel />
        <OrgFacts />
      </Stack>
    </>
  );
}
