import { Button, Checkbox, Group, MultiSelect, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';

import { type Schemas, unwrap } from '@app/client';

import { api } from '../../app/api';
import { ErrorNotice } from '../../app/errors';
import { formatMoney, humanize } from '../../app/format';
import { TaskModal } from './TaskDialogs';
import { type Task, useAgents } from './taskModel';

type CoordinationResult = Schemas['CoordinationResultResponse'];

/** Splits a created task into subtasks run by agents in waves, and shows how each phase went. */
export function CoordinateDialog({
  task,
  opened,
  onClose,
  currency,
}: {
  task: Task;
  opened: boolean;
  onClose: () => void;
  currency: string;
}) {
  const client = useQueryClient();
  const agents = useAgents();
  const [maxSubtasks, setMaxSubtasks] = useState<number | string>(10);
  const [chosen, setChosen] = useState<string[]>([]);
  const [failFast, setFailFast] = useState(false);
  const names = useMemo(
    () => (agents.data?.items ?? []).filter((a) => a.status === 'active').map((a) => a.name),
    [agents.data],
  );

  const coordinate = useMutation({
    mutationFn: (): Promise<CoordinationResult> =>
      unwrap(
        api.POST('/api/v1/tasks/{task_id}/coordinate', {
          params: { path: { task_id: task.id } },
          body: {
            max_subtasks: typeof maxSubtasks === 'number' ? maxSubtasks : Number(maxSubtasks) || 10,
            agent_names: chosen.length > 0 ? chosen : null,
            fail_fast: failFast ? true : null,
          },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['tasks'] }),
  });
  const result = coordinate.data;

  return (
    <TaskModal opened={opened} onClose={onClose} title={`Coordinate “${task.title}”`} size="lg">
      {result ? (
        <CoordinationSummary result={result} currency={currency} onClose={onClose} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            coordinate.mutate();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              The task is split into subtasks, each routed to an agent and run in waves; their outcomes roll up into
              this task. This can take a while.
            </Text>
            <NumberInput
              label="Maximum subtasks"
              min={1}
              max={50}
              allowDecimal={false}
              value={maxSubtasks}
              onChange={setMaxSubtasks}
            />
            <MultiSelect
              label="Agents"
              description="Who may take subtasks; none chosen means every active agent."
              data={names}
              value={chosen}
              onChange={setChosen}
              searchable
              clearable
              maxValues={50}
            />
            <Checkbox
              label="Stop after the first wave with a failed subtask"
              checked={failFast}
              onChange={(e) => setFailFast(e.currentTarget.checked)}
            />
            {coordinate.error ? <ErrorNotice error={coordinate.error} title="Coordination failed" /> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
              <Button type="submit" loading={coordinate.isPending}>
                Coordinate
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </TaskModal>
  );
}

function CoordinationSummary({
  result,
  currency,
  onClose,
}: {
  result: CoordinationResult;
  currency: string;
  onClose: () => void;
}) {
  return (
    <Stack gap="sm">
      <Text size="sm" fw={600} role="status">
        {result.is_success ? 'Coordination succeeded' : 'Coordination did not complete every phase'}
      </Text>
      <Text size="sm">
        Topology {humanize(result.topology)} · {result.wave_count} wave{result.wave_count === 1 ? '' : 's'} ·{' '}
        {result.total_duration_seconds.toFixed(1)} s · {formatMoney(result.total_cost_usd, currency)}
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Phase</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Duration</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {result.phases.map((phase) => (
            <Table.Tr key={phase.phase}>
              <Table.Td>{humanize(phase.phase)}</Table.Td>
              <Table.Td>{phase.success ? 'Succeeded' : `Failed: ${phase.error ?? 'no detail'}`}</Table.Td>
              <Table.Td>{phase.duration_seconds.toFixed(1)} s</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}
