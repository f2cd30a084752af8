import { Anchor, Badge, Box, Button, Group, Paper, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { unwrapPage } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { humanize } from '../../app/format';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useAllAgents, useCompanyDepartments } from './agentQueries';
import { agentPath, autonomyLabel, departmentLabel, levelLabel, STATUS_COLOR, type Agent } from './agentText';
import { ListPager } from '../../components/ListPager';
import { buildOrgChart, type OrgGroup, type OrgNode } from './orgChart';

const PAGE_SIZE = 50;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Above this many agents the departments start folded, so the chart stays quick to draw. */
const UNFOLDED_MAX = 200;

function StatusBadge({ status }: { status: Agent['status'] }) {
  return (
    <Badge variant="dot" color={STATUS_COLOR[status] ?? 'gray'} size="sm">
      {humanize(status)}
    </Badge>
  );
}

function NoAgents() {
  return (
    <Empty title="No agents yet">
      Agents join when the company is created from a template or added during setup. Once hired, they appear here
      grouped by department.
    </Empty>
  );
}

function OrgBranch({ node }: { node: OrgNode }) {
  const { agent } = node;
  return (
    <li className="org-node">
      <Group gap="xs" wrap="wrap" py={4}>
        <Anchor component={Link} to={agentPath(agent.name)} fw={600}>
          {agent.name}
        </Anchor>
        <Text size="sm">
          {agent.role} · {levelLabel(agent.level)}
        </Text>
        <StatusBadge status={agent.status} />
        {node.reportsToOutside ? (
          <Text size="xs" c="dimmed">
            reports to{' '}
            <Anchor component={Link} to={agentPath(node.reportsToOutside.name)} size="xs" underline="always">
              {node.reportsToOutside.name}
            </Anchor>{' '}
            ({departmentLabel(node.reportsToOutside.department)})
          </Text>
        ) : null}
      </Group>
      {node.reports.length > 0 ? (
        <Box
          component="ul"
          aria-label={`Reports to ${agent.name}`}
          m={0}
          pl="lg"
          style={{ listStyle: 'none', borderLeft: '2px solid var(--mantine-color-gray-4)' }}
        >
          {node.reports.map((child) => (
            <OrgBranch key={child.agent.id} node={child} />
          ))}
        </Box>
      ) : null}
    </li>
  );
}

function DepartmentSection({ group, unfolded }: { group: OrgGroup; unfolded: boolean }) {
  const [open, setOpen] = useState(unfolded);
  const id = useId();
  const title = departmentLabel(group.name);
  const dept = group.department;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={`${id}-title`}>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={2} size="h4" id={`${id}-title`}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {plural(group.agentCount, 'agent')}
            {dept ? ` · Head: ${dept.head ?? 'none'}` : ''}
            {dept ? ` · ${dept.budget_percent}% of the budget` : ''}
            {dept ? ` · Autonomy: ${autonomyLabel(dept.autonomy_level)}` : ''}
          </Text>
        </Stack>
        {group.agentCount > 0 ? (
          <Button
            variant="subtle"
            size="xs"
            aria-expanded={open}
            aria-controls={`${id}-tree`}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? `Hide ${title} agents` : `Show ${title} agents`}
          </Button>
        ) : null}
      </Group>
      {group.agentCount === 0 ? (
        <Text size="sm" c="dimmed" mt="xs">
          No agents in this department yet.
        </Text>
      ) : open ? (
        <Box
          component="ul"
          id={`${id}-tree`}
          aria-label={`${title} agents`}
          m={0}
          mt="xs"
          p={0}
          style={{ listStyle: 'none' }}
        >
          {group.roots.map((node) => (
            <OrgBranch key={node.agent.id} node={node} />
          ))}
        </Box>
      ) : null}
    </Paper>
  );
}

function OrgChart() {
  const agents = useAllAgents();
  const departments = useCompanyDepartments();
  const groups = useMemo(
    () => (agents.data ? buildOrgChart(agents.data, departments.data ?? []) : []),
    [agents.data, departments.data],
  );

  if (agents.error) {
    return <ErrorNotice error={agents.error} title="The agents could not be loaded" />;
  }
  if (!agents.data || departments.isPending) {
    return <Loading label="Loading the org chart" />;
  }
  if (agents.data.length === 0) {
    return (
      <Stack>
        <NoAgents />
        {departments.data && departments.data.length > 0 ? (
          <Text size="sm" c="dimmed" ta="center">
            Departments ready for agents: {departments.data.map((d) => departmentLabel(d.name)).join(', ')}.
          </Text>
        ) : null}
      </Stack>
    );
  }
  const unfolded = agents.data.length <= UNFOLDED_MAX;
  return (
    <Stack gap="md">
      {departments.error ? (
        <ErrorNotice
          error={departments.error}
          title="Departments could not be loaded; agents are grouped by their department name"
        />
      ) : null}
      {groups.map((group) => (
        <DepartmentSection key={group.key} group={group} unfolded={unfolded} />
      ))}
    </Stack>
  );
}

function AgentTable() {
  const [offset, setOffset] = useState(0);
  const page = useQuery({
    queryKey: ['agents', 'page', offset, PAGE_SIZE],
    queryFn: () => unwrapPage(api.GET('/api/v1/agents', { params: { query: { offset, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });

  if (page.error) {
    return <ErrorNotice error={page.error} title="The agents could not be loaded" />;
  }
  if (!page.data) {
    return <Loading label="Loading agents" />;
  }
  if (page.data.total === 0) {
    return <NoAgents />;
  }
  return (
    <>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover captionSide="top">
          <Table.Caption>Every agent on the roster, in hiring order</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Department</Table.Th>
              <Table.Th scope="col">Level</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Autonomy</Table.Th>
              <Table.Th scope="col">Model</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.data.items.map((agent) => (
              <Table.Tr key={agent.id}>
                <Table.Td>
                  <Anchor component={Link} to={agentPath(agent.name)} fw={600}>
                    {agent.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{agent.role}</Table.Td>
                <Table.Td>{departmentLabel(agent.department)}</Table.Td>
                <Table.Td>{levelLabel(agent.level)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={agent.status} />
                </Table.Td>
                <Table.Td>{autonomyLabel(agent.autonomy_level)}</Table.Td>
                <Table.Td>{agent.model?.model_id ?? `${humanize(agent.tier)} tier`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPager
        total={page.data.total}
        offset={page.data.offset}
        limit={PAGE_SIZE}
        onChange={setOffset}
        label="Pages of agents"
      />
    </>
  );
}

function AgentsPage() {
  const [params, setParams] = useSearchParams();
  const { me } = useSession();
  const view = params.get('view') === 'list' ? 'list' : 'chart';
  const departments = useCompanyDepartments();
  const deptCount = departments.data?.length ?? 0;
  const staffed = departments.data?.reduce((sum, d) => sum + (d.agent_count ?? 0), 0) ?? 0;

  return (
    <>
      <PageHeader
        title="Agents"
        description={
          deptCount > 0
            ? `${plural(staffed, 'agent')} in ${plural(deptCount, 'department')}, by department and reporting line`
            : 'The company’s agents by department and reporting line'
        }
        actions={
          can(me.role, 'manage') ? (
            <Button component={Link} to="/hiring?new=1" size="sm">
              Hire an agent
            </Button>
          ) : null
        }
      />
      <Tabs
        value={view}
        onChange={(value) => setParams(value === 'list' ? { view: 'list' } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="chart">Org chart</Tabs.Tab>
          <Tabs.Tab value="list">All agents</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="chart">
          <OrgChart />
        </Tabs.Panel>
        <Tabs.Panel value="list">
          <AgentTable />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

export default function Agents() {
  return (
    <>
      <AgentsPage />
    </>
  );
}
