import { Anchor, Badge, Button, Group, List, Paper, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatDateTime, humanize } from '../../app/format';
import { Loading } from '../../components/Loading';
import { type Agent, levelLabel } from './agentText';

type Evaluation = Schemas['LevelEvaluation'];

const CRITERION_LABEL: Record<Schemas['LevelCriterion']['name'], string> = {
  quality_score: 'Quality score',
  success_rate: 'Success rate (%)',
  tasks_completed: 'Tasks completed',
};

const STEP_COLOR: Record<Schemas['OnboardingStep']['state'], string> = {
  running: 'blue',
  done: 'green',
  failed: 'red',
};

/** What the evaluation decided, in a sentence. */
export function decisionText(e: Evaluation): string {
  switch (e.decision) {
    case 'promoted':
      return `Promoted to ${levelLabel(e.to_level)}.`;
    case 'demoted':
      return `Demoted to ${levelLabel(e.to_level)}.`;
    case 'pending_approval':
      return `A move to ${levelLabel(e.to_level)} waits for a person’s decision.`;
    case 'no_change':
      return `Stays ${levelLabel(e.level)}.`;
  }
}

/** "Evaluate level": runs the promotion and demotion criteria now and shows each one and the decision. */
export function LevelEvaluationPanel({ agent }: { agent: Agent }) {
  const client = useQueryClient();
  const evaluate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/agents/{agent_name}/evaluate-level', { params: { path: { agent_name: agent.name } } })),
    onSuccess: (result) => {
      if (result.decision === 'promoted' || result.decision === 'demoted') {
        void client.invalidateQueries({ queryKey: ['agents'] });
      }
    },
  });
  const e = evaluate.data;
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="evaluation-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="evaluation-title">
          Level evaluation
        </Title>
        <Button size="xs" onClick={() => evaluate.mutate()} loading={evaluate.isPending}>
          Evaluate level
        </Button>
      </Group>
      {evaluate.error ? <ErrorNotice error={evaluate.error} title="The level was not evaluated" /> : null}
      {e ? (
        <>
          <Text size="sm" fw={600} role="status" aria-label="Decision">
            {decisionText(e)}
          </Text>
          <Text size="sm" mb="xs">
            {e.reason}
            {e.decision === 'pending_approval' ? (
              <>
                {' '}
                See the{' '}
                <Anchor component={Link} to="/approvals">
                  approvals queue
                </Anchor>
                .
              </>
            ) : null}
          </Text>
          <Text size="xs" c="dimmed" mb="xs">
            {e.promotion_criteria_met} promotion and {e.demotion_criteria_met} demotion criteria met of the{' '}
            {e.min_criteria_met} needed · {formatDateTime(e.evaluated_at)}
          </Text>
          <Table.ScrollContainer minWidth={480}>
            <Table>
              <Table.Caption>Criteria of the evaluation</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Criterion</Table.Th>
                  <Table.Th>For</Table.Th>
                  <Table.Th>Value</Table.Th>
                  <Table.Th>Needs</Table.Th>
                  <Table.Th>Met</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {e.criteria.map((c) => (
                  <Table.Tr key={`${c.direction}-${c.name}`}>
                    <Table.Td>{CRITERION_LABEL[c.name] ?? humanize(c.name)}</Table.Td>
                    <Table.Td>{humanize(c.direction)}</Table.Td>
                    <Table.Td>{c.value ?? 'no data'}</Table.Td>
                    <Table.Td>
                      {c.comparison} {c.threshold}
                    </Table.Td>
                    <Table.Td>{c.met ? 'Yes' : 'No'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          Compares the agent’s performance with the criteria of its level; a move may need a person’s approval.
        </Text>
      )}
    </Paper>
  );
}

/** The onboarding checklist of an agent hired through a request, while it onboards. */
export function OnboardingPanel({ agent }: { agent: Agent }) {
  const onboarding = useQuery({
    queryKey: ['agents', 'detail', agent.name, 'onboarding'],
    queryFn: () =>
      unwrap(api.GET('/api/v1/agents/{agent_name}/onboarding', { params: { path: { agent_name: agent.name } } })),
  });
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="onboarding-title">
      <Title order={2} size="h4" id="onboarding-title" mb="xs">
        Onboarding
      </Title>
      {onboarding.error ? <ErrorNotice error={onboarding.error} title="The onboarding could not be loaded" /> : null}
      {onboarding.isPending ? <Loading label="Loading the onboarding checklist" /> : null}
      {onboarding.data ? (
        <>
          <Text size="xs" c="dimmed" mb="xs">
            Started {formatDateTime(onboarding.data.started_at)}
            {onboarding.data.completed_at ? ` · finished ${formatDateTime(onboarding.data.completed_at)}` : ''}
          </Text>
          <List spacing="xs" aria-label="Onboarding steps">
            {onboarding.data.steps.map((step) => (
              <List.Item key={step.name}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={500}>
                    {humanize(step.name)}
                  </Text>
                  <Badge size="sm" variant="light" color={STEP_COLOR[step.state]}>
                    {humanize(step.state)}
                  </Badge>
                  <Anchor
                    component={Link}
                    to={`/tasks/${step.task_id}`}
                    size="sm"
                    aria-label={`The task of ${humanize(step.name)}`}
                  >
                    its task
                  </Anchor>
                </Group>
                {step.summary || step.reason ? (
                  <Text size="xs" c="dimmed">
                    {step.summary ?? step.reason}
                  </Text>
                ) : null}
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
    </Paper>
  );
}
