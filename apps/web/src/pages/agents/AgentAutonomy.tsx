import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';

import { unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice, notifyDone } from '../../app/errors';
import { formatDateTime, humanize } from '../../app/format';
import { can } from '../../app/roles';
import { useSession } from '../../app/session';
import { Empty } from '../../components/Empty';
import { Loading } from '../../components/Loading';
import { type Agent, AUTONOMY_LEVELS, autonomyLabel, type AutonomyLevel } from './agentText';

const SOURCE_TEXT: Record<string, string> = {
  agent: 'set on this agent',
  department: 'inherited from its department',
  company: 'inherited from the company',
  default: 'the default',
  downgrade: 'lowered by a downgrade',
};

const INHERIT = 'inherit';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} fw={500}>
        {children}
      </Text>
    </div>
  );
}

/**
 * Whether the person may set this agent's autonomy: a CEO for any agent, a manager for their own
 * department's agents (the service refuses the rest).
 */
export function maySetAutonomy(me: { role: string; department: string | null }, agent: Agent): boolean {
  if (!can(me.role as Parameters<typeof can>[0], 'manage')) {
    return false;
  }
  if (me.role === 'manager') {
    return !!me.department && me.department.toLowerCase() === agent.department.toLowerCase();
  }
  return true;
}

function AutonomyForm({ agent, current }: { agent: Agent; current: AutonomyLevel | null }) {
  const client = useQueryClient();
  const [level, setLevel] = useState<string>(current ?? INHERIT);
  const [reason, setReason] = useState('');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/v1/agents/{agent_name}/autonomy', {
          params: { path: { agent_name: agent.name } },
          body: {
            level: level === INHERIT ? null : (level as AutonomyLevel),
            ...(reason.trim() ? { reason: reason.trim() } : {}),
          },
        }),
      ),
    onSuccess: async (result) => {
      notifyDone(`${agent.name} now works at ${autonomyLabel(result.level)} autonomy`);
      setReason('');
      await client.invalidateQueries({ queryKey: ['agents'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Change autonomy">
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Autonomy level"
            description="The agent’s own level; inheriting uses the department’s or the company’s"
            data={[
              { value: INHERIT, label: 'Inherit from department or company' },
              ...AUTONOMY_LEVELS.map((l) => ({ value: l.value, label: `${l.label}: ${l.hint}` })),
            ]}
            value={level}
            onChange={(value) => setLevel(value ?? INHERIT)}
            allowDeselect={false}
            w={420}
            maw="100%"
          />
          <TextInput
            label="Reason"
            description="Kept in the audit trail"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={1024}
            w={280}
            maw="100%"
          />
          <Button type="submit" loading={save.isPending}>
            Save autonomy
          </Button>
        </Group>
        {save.error ? <ErrorNotice error={save.error} title="The autonomy was not changed" /> : null}
      </Stack>
    </form>
  );
}

export function AutonomyPanel({ agent }: { agent: Agent }) {
  const { me } = useSession();
  const autonomy = useQuery({
    queryKey: ['agents', 'detail', agent.name, 'autonomy'],
    queryFn: () =>
      unwrap(api.GET('/api/v1/agents/{agent_name}/autonomy', { params: { path: { agent_name: agent.name } } })),
  });

  if (autonomy.error) {
    return <ErrorNotice error={autonomy.error} title="The autonomy could not be loaded" />;
  }
  if (!autonomy.data) {
    return <Loading label="Loading the autonomy" />;
  }
  const a = autonomy.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="autonomy-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="autonomy-title">
            Autonomy
          </Title>
          <Badge size="lg" variant="dot">
            {autonomyLabel(a.level)}
          </Badge>
        </Group>
        <Text size="sm">
          Works at <strong>{autonomyLabel(a.level)}</strong> autonomy, {SOURCE_TEXT[a.source] ?? humanize(a.source)}.{' '}
          {AUTONOMY_LEVELS.find((l) => l.value === a.level)?.hint}.
        </Text>
        {a.downgrade ? (
          <Alert color="orange" title="Autonomy downgraded" role="status">
            <Text size="sm">
              Lowered from {autonomyLabel(a.downgrade.original_level)} to {autonomyLabel(a.downgrade.current_level)} on{' '}
              {formatDateTime(a.downgrade.downgraded_at)} because of {humanize(a.downgrade.reason).toLowerCase()}
              {a.downgrade.detail ? `: ${a.downgrade.detail}` : ''}. A person restores it by setting the agent’s level.
            </Text>
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" m={0}>
          <Fact label="Agent’s own level">{a.agent_level ? autonomyLabel(a.agent_level) : 'Not set (inherits)'}</Fact>
          <Fact label="Department level">{a.department_level ? autonomyLabel(a.department_level) : 'Not set'}</Fact>
          <Fact label="Company level">{autonomyLabel(a.company_level)}</Fact>
          <Fact label="Security agent review">{a.security_agent ? 'Yes' : 'No'}</Fact>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} component="dl" m={0}>
          <Fact label={`Approved without a person (${a.auto_approve.length})`}>
            {a.auto_approve.length ? a.auto_approve.join(', ') : 'None'}
          </Fact>
          <Fact label={`Sent to a person (${a.human_approval.length})`}>
            {a.human_approval.length ? a.human_approval.join(', ') : 'None'}
          </Fact>
        </SimpleGrid>
        {maySetAutonomy(me, agent) ? (
          <AutonomyForm key={a.agent_level ?? INHERIT} agent={agent} current={a.agent_level} />
        ) : null}
      </Stack>
    </Paper>
  );
}

export function TrustPanel({ agent }: { agent: Agent }) {
  const trust = useQuery({
    queryKey: ['agents', 'detail', agent.name, 'trust'],
    queryFn: () =>
      unwrap(api.GET('/api/v1/agents/{agent_name}/trust', { params: { path: { agent_name: agent.name } } })),
  });

  if (trust.error) {
    return <ErrorNotice error={trust.error} title="The trust could not be loaded" />;
  }
  if (!trust.data) {
    return <Loading label="Loading the trust" />;
  }
  const t = trust.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="trust-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="trust-title">
            Trust
          </Title>
          <Badge size="lg" variant="dot" color="teal">
            {humanize(t.access_level)} access
          </Badge>
        </Group>
        <Text size="sm">
          Trust grows with the agent’s record and is evaluated by the service; a promotion to a higher access level
          waits for a person in{' '}
          <Anchor component={Link} to="/approvals">
            Approvals
          </Anchor>
          .
        </Text>
        {t.pending_level ? (
          <Alert color="blue" title="Promotion waiting" role="status">
            <Text size="sm">
              A promotion to {humanize(t.pending_level)} access waits for a decision in{' '}
              <Anchor component={Link} to="/approvals">
                Approvals
              </Anchor>
              .
            </Text>
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" m={0}>
          <Fact label="Strategy">{humanize(t.strategy)}</Fact>
          <Fact label="Trust score">
            {t.trust_score === null || t.trust_score === undefined ? '—' : `${Math.round(t.trust_score * 100)} / 100`}
          </Fact>
          <Fact label="Last changed">{formatDateTime(t.last_changed_at)}</Fact>
          <Fact label="Last evaluated">{t.evaluated_at ? formatDateTime(t.evaluated_at) : 'Never'}</Fact>
        </SimpleGrid>
        {t.changes.length === 0 ? (
          <Empty title="No trust changes yet">
            Changes of the access level, and promotions decided by people, appear here.
          </Empty>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table captionSide="top">
              <Table.Caption>Latest trust changes, newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">When</Table.Th>
                  <Table.Th scope="col">Change</Table.Th>
                  <Table.Th scope="col">Outcome</Table.Th>
                  <Table.Th scope="col">Reason</Table.Th>
                  <Table.Th scope="col">By</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {t.changes.map((change, index) => (
                  <Table.Tr key={`${change.timestamp}-${index}`}>
                    <Table.Td>{formatDateTime(change.timestamp)}</Table.Td>
                    <Table.Td>
                      {humanize(change.from_level)} → {humanize(change.to_level)}
                    </Table.Td>
                    <Table.Td>{humanize(change.outcome)}</Table.Td>
                    <Table.Td>{change.reason}</Table.Td>
                    <Table.Td>{change.actor}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
