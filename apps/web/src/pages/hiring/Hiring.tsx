import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { formatDateTime, formatMoney, humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useCompanyDepartments } from '../agents/agentQueries';
import { agentPath, departmentLabel, levelLabel } from '../agents/agentText';
import { ListPager } from '../../components/ListPager';

type HiringRequest = Schemas['HiringRequest'];
type Level = Schemas['CreateHiringRequest']['level'];
type Status = HiringRequest['status'];

const PAGE_SIZE = 20;
const LEVELS: Level[] = ['junior', 'mid', 'senior', 'lead', 'principal', 'director', 'vp', 'c_suite'];
const STATUSES: Status[] = ['pending', 'approved', 'rejected', 'instantiated'];
const STATUS_COLOR: Record<Status, string> = {
  pending: 'yellow',
  approved: 'blue',
  rejected: 'red',
  instantiated: 'green',
};

function StatusBadge({ status }: { status: Status }) {
  return (
    <Badge variant="light" color={STATUS_COLOR[status]} size="sm">
      {humanize(status)}
    </Badge>
  );
}

/** Whether a candidate's estimated monthly cost is above the request's own monthly limit (none: never). */
export function overBudget(cost: number, limit: number | null): boolean {
  return limit !== null && cost > limit;
}

/** A candidate's estimated cost against the request's limit: by how much it is over, or that it fits. */
function BudgetFit({ cost, limit }: { cost: number; limit: number | null }) {
  if (limit === null) {
    return null;
  }
  const over = overBudget(cost, limit);
  return (
    <Text
      size="xs"
      fw={700}
      c={over ? 'var(--mantine-color-red-light-color)' : 'var(--mantine-color-green-light-color)'}
      style={{ whiteSpace: 'nowrap' }}
    >
      {over ? `${formatMoney(cost - limit)} over the limit` : 'Within the limit'}
    </Text>
  );
}

/** "python, api-design" → ["python", "api-design"]: blanks and repeats left out. */
export function parseSkills(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** The request form: what the new agent is for; the server builds the candidates. */
function HireForm({ onFiled, onCancel }: { onFiled: (request: HiringRequest) => void; onCancel: () => void }) {
  const client = useQueryClient();
  const departments = useCompanyDepartments();
  const [department, setDepartment] = useState('');
  const [role, setRole] = useState('');
  const [level, setLevel] = useState<Level>('mid');
  const [skills, setSkills] = useState('');
  const [reason, setReason] = useState('');
  const [budget, setBudget] = useState<number | ''>('');
  const file = useMutation({
    mutationFn: (body: Schemas['CreateHiringRequest']) => unwrap(api.POST('/api/v1/hiring/requests', { body })),
    onSuccess: (request) => {
      void client.invalidateQueries({ queryKey: ['hiring', 'list'] });
      onFiled(request);
    },
  });
  const chosenDepartment = department || departments.data?.[0]?.name || '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    file.mutate({
      department: chosenDepartment,
      role: role.trim(),
      level,
      required_skills: parseSkills(skills),
      reason: reason.trim(),
      budget_limit_monthly: budget === '' ? null : budget,
    });
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="hire-form-title">
      <Title order={2} size="h4" id="hire-form-title" mb="sm">
        Hire an agent
      </Title>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Group grow align="flex-start" wrap="wrap">
            <NativeSelect
              label="Department"
              required
              value={chosenDepartment}
              onChange={(e) => setDepartment(e.currentTarget.value)}
              data={(departments.data ?? []).map((d) => ({ value: d.name, label: departmentLabel(d.name) }))}
            />
            <TextInput
              label="Role"
              required
              placeholder="Backend Developer"
              value={role}
              onChange={(e) => setRole(e.currentTarget.value)}
            />
            <NativeSelect
              label="Level"
              value={level}
              onChange={(e) => setLevel(e.currentTarget.value as Level)}
              data={LEVELS.map((l) => ({ value: l, label: levelLabel(l) }))}
            />
          </Group>
          <TextInput
            label="Required skills"
            description="Separated by commas"
            placeholder="python, api-design"
            value={skills}
            onChange={(e) => setSkills(e.currentTarget.value)}
          />
          <Textarea
            label="Reason"
            required
            autosize
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <NumberInput
            label="Monthly budget limit"
            description="Empty: no limit of its own"
            min={0}
            decimalScale={2}
            value={budget}
            onChange={(value) => setBudget(typeof value === 'number' ? value : '')}
            maw={240}
          />
          {file.error ? <ErrorNotice error={file.error} title="The request was not filed" /> : null}
          <Group>
            <Button type="submit" loading={file.isPending}>
              File the request
            </Button>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** One request: its candidates with their cost, the choice, and instantiation or the approval it waits on. */
export function RequestDetail({ requestId, onClose }: { requestId: string; onClose: () => void }) {
  const client = useQueryClient();
  const { me } = useSession();
  const manage = can(me.role, 'manage');
  const request = useQuery({
    queryKey: ['hiring', 'request', requestId],
    queryFn: () =>
      unwrap(api.GET('/api/v1/hiring/requests/{request_id}', { params: { path: { request_id: requestId } } })),
  });
  const settle = (next: HiringRequest) => {
    client.setQueryData(['hiring', 'request', requestId], next);
    void client.invalidateQueries({ queryKey: ['hiring', 'list'] });
  };
  const select = useMutation({
    mutationFn: (candidateId: string) =>
      unwrap(
        api.POST('/api/v1/hiring/requests/{request_id}/select', {
          params: { path: { request_id: requestId } },
          body: { candidate_id: candidateId },
        }),
      ),
    onSuccess: settle,
  });
  const instantiate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/hiring/requests/{request_id}/instantiate', { params: { path: { request_id: requestId } } }),
      ),
    onSuccess: (next) => {
      settle(next);
      void client.invalidateQueries({ queryKey: ['agents'] });
      void client.invalidateQueries({ queryKey: ['departments'] });
      notifyDone('The agent was hired; it starts onboarding');
    },
  });

  if (request.isPending) {
    return <Loading />;
  }
  if (request.isError) {
    return <ErrorNotice error={request.error} title="The hiring request could not be loaded" />;
  }
  const r = request.data;
  const open = r.status === 'pending' || r.status === 'approved';
  const chosen = r.candidates.find((c) => c.id === r.selected_candidate_id);
  const hired = r.status === 'instantiated' ? chosen : undefined;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="request-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="request-title">
          {r.role} · {levelLabel(r.level)} · {departmentLabel(r.department)}
        </Title>
        <Button variant="subtle" size="xs" onClick={onClose}>
          Hide details
        </Button>
      </Group>
      <Group gap="xs" mb="sm">
        <StatusBadge status={r.status} />
        <Text size="sm" c="dimmed">
          filed by {r.requested_by} {formatDateTime(r.created_at)}
          {r.budget_limit_monthly !== null ? ` · limit ${formatMoney(r.budget_limit_monthly)} a month` : ''}
        </Text>
      </Group>
      <Text size="sm" mb="sm">
        {r.reason}
      </Text>
      {r.status === 'pending' ? (
        <Text size="sm" role="status" mb="sm">
          This request waits for a second person’s decision in the{' '}
          <Anchor component={Link} to="/approvals">
            approvals queue
          </Anchor>
          ; it can be instantiated once approved.
        </Text>
      ) : null}
      {r.status === 'rejected' ? (
        <Text size="sm" role="status" mb="sm">
          This request was rejected{r.decided_by ? ` by ${r.decided_by}` : ''}; no agent will be made from it.
        </Text>
      ) : null}
      {hired && r.agent_id ? (
        <Text size="sm" role="status" mb="sm">
          Hired:{' '}
          <Anchor component={Link} to={agentPath(hired.name)}>
            {hired.name}
          </Anchor>
          , now onboarding.
        </Text>
      ) : null}
      <Radio.Group
        label="Candidates"
        description={`The estimated monthly cost is at the model’s prices for 1M input and 250k output tokens${
          r.budget_limit_monthly !== null
            ? `, against this request’s limit of ${formatMoney(r.budget_limit_monthly)} a month`
            : '; this request sets no monthly limit'
        }`}
        value={r.selected_candidate_id ?? ''}
        onChange={(id) => select.mutate(id)}
      >
        <Stack gap="xs" mt="xs">
          {r.candidates.map((c) => (
            <Paper key={c.id} withBorder p="sm">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Radio
                  value={c.id}
                  disabled={!manage || !open || select.isPending}
                  label={`${c.name} (${c.model_provider} / ${c.model_id})`}
                  description={`${c.personality_preset} · skills: ${c.skills.join(', ') || 'none'} · ${c.rationale}`}
                />
                <Stack gap={4} align="flex-end">
                  <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {formatMoney(c.estimated_monthly_cost)} a month
                  </Text>
                  <BudgetFit cost={c.estimated_monthly_cost} limit={r.budget_limit_monthly} />
                </Stack>
              </Group>
            </Paper>
          ))}
        </Stack>
      </Radio.Group>
      {chosen && open && overBudget(chosen.estimated_monthly_cost, r.budget_limit_monthly) ? (
        <Alert color="orange" variant="light" mt="sm" title="Over this request’s budget">
          {chosen.name} is estimated at {formatMoney(chosen.estimated_monthly_cost)} a month, more than the limit of{' '}
          {formatMoney(r.budget_limit_monthly ?? 0)} a month this request sets for the new agent; the agent would reach
          its budget before the month ends.
          {r.candidates.some((c) => !overBudget(c.estimated_monthly_cost, r.budget_limit_monthly))
            ? ' A candidate within the limit is listed above.'
            : ' No candidate is within the limit.'}
        </Alert>
      ) : null}
      {select.error ? <ErrorNotice error={select.error} title="The candidate was not selected" /> : null}
      {instantiate.error ? <ErrorNotice error={instantiate.error} title="The agent was not hired" /> : null}
      {manage && r.status === 'approved' ? (
        <Button mt="md" onClick={() => instantiate.mutate()} loading={instantiate.isPending}>
          Hire the selected candidate
        </Button>
      ) : null}
    </Paper>
  );
}

function RequestList({ onOpen }: { onOpen: (id: string) => void }) {
  const [status, setStatus] = useState<Status | ''>('');
  const [offset, setOffset] = useState(0);
  const list = useQuery({
    queryKey: ['hiring', 'list', status, offset],
    queryFn: () =>
      unwrapPage(
        api.GET('/api/v1/hiring/requests', {
          params: { query: { offset, limit: PAGE_SIZE, ...(status ? { status } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="requests-title">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4" id="requests-title">
          Hiring requests
        </Title>
        <NativeSelect
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as Status | '');
            setOffset(0);
          }}
          data={[{ value: '', label: 'Any' }, ...STATUSES.map((s) => ({ value: s, label: humanize(s) }))]}
        />
      </Group>
      {list.isPending ? <Loading /> : null}
      {list.isError ? <ErrorNotice error={list.error} title="The hiring requests could not be loaded" /> : null}
      {list.data && list.data.items.length === 0 ? (
        <Empty title="No hiring requests">A request for a new agent appears here, oldest first.</Empty>
      ) : null}
      {list.data && list.data.items.length > 0 ? (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="Hiring requests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Department</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Filed</Table.Th>
                  <Table.Th>By</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>
                      <Anchor component="button" type="button" size="sm" onClick={() => onOpen(r.id)}>
                        {r.role} ({levelLabel(r.level)})
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{departmentLabel(r.department)}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={r.status} />
                    </Table.Td>
                    <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                    <Table.Td>{r.requested_by}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPager
            total={list.data.total}
            offset={offset}
            limit={PAGE_SIZE}
            onChange={setOffset}
            label="Pages of hiring requests"
          />
        </>
      ) : null}
    </Stack>
  );
}

export default function Hiring() {
  const { me } = useSession();
  const [params, setParams] = useSearchParams();
  const open = params.get('request');
  const [filing, setFiling] = useState(params.get('new') === '1');
  const manage = can(me.role, 'manage');
  const openRequest = (id: string | null) => setParams(id ? { request: id } : {}, { replace: true });

  return (
    <>
      <PageHeader
        title="Hiring"
        description="Requests for new agents: candidates with their estimated cost, the choice, and the hire"
        actions={
          manage && !filing ? (
            <Button onClick={() => setFiling(true)} size="sm">
              Hire an agent
            </Button>
          ) : null
        }
      />
      <Stack gap="lg">
        {manage && filing ? (
          <HireForm
            onCancel={() => setFiling(false)}
            onFiled={(request) => {
              setFiling(false);
              openRequest(request.id);
            }}
          />
        ) : null}
        {open ? <RequestDetail key={open} requestId={open} onClose={() => openRequest(null)} /> : null}
        <RequestList onOpen={openRequest} />
      </Stack>
    </>
  );
}
