import { Modal, NavLink, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';

import { unwrapPage } from '@app/client';

import { api } from './api';
import { can } from './roles';
import { useSession } from './session';
import { NAVIGATION } from './Shell';

interface Target {
  kind: 'Page' | 'Agent' | 'Task';
  label: string;
  to: string;
}

const TASKS_SEARCHED = 100;
const SHOWN = 20;

/** The targets matching the query: every word must appear in the label (case-insensitive). */
export function matching(targets: Target[], query: string): Target[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return targets.filter((t) => words.every((w) => t.label.toLowerCase().includes(w) || t.kind.toLowerCase() === w));
}

/** Ctrl/Cmd-K: jump to any page, agent or (recent) task by typing part of its name. */
export default function CommandPalette({ onClose }: { onClose: () => void }) {
  const { me } = useSession();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const agents = useQuery({
    queryKey: ['agents', 'palette'],
    queryFn: () => unwrapPage(api.GET('/api/v1/agents', { params: { query: { offset: 0, limit: 200 } } })),
  });
  const tasks = useQuery({
    queryKey: ['tasks', 'palette'],
    queryFn: () => unwrapPage(api.GET('/api/v1/tasks', { params: { query: { offset: 0, limit: TASKS_SEARCHED } } })),
  });

  const targets = useMemo<Target[]>(
    () => [
      ...NAVIGATION.filter((n) => !n.needs || can(me.role, n.needs)).map((n) => ({
        kind: 'Page' as const,
        label: n.label,
        to: n.to,
      })),
      { kind: 'Page', label: 'Account', to: '/account' },
      ...(agents.data?.items.map((a) => ({
        kind: 'Agent' as const,
        label: a.name,
        to: `/agents/${encodeURIComponent(a.name)}`,
      })) ?? []),
      ...(tasks.data?.items.map((t) => ({ kind: 'Task' as const, label: t.title, to: `/tasks/${t.id}` })) ?? []),
    ],
    [agents.data, tasks.data, me.role],
  );
  const results = matching(targets, query).slice(0, SHOWN);
  const chosen = Math.min(active, Math.max(0, results.length - 1));

  const go = (target: Target | undefined) => {
    if (target) {
      onClose();
      void navigate(target.to);
    }
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((chosen + 1) % Math.max(1, results.length));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((chosen - 1 + results.length) % Math.max(1, results.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(results[chosen]);
    }
  };

  return (
    <Modal opened onClose={onClose} title="Go to" size="lg">
      <Stack gap="xs">
        <TextInput
          label="Page, agent or task"
          placeholder="Type to search"
          data-autofocus
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKey}
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls="palette-results"
          aria-activedescendant={results.length > 0 ? `palette-${chosen}` : undefined}
          aria-autocomplete="list"
        />
        <ScrollArea.Autosize mah={400}>
          <div role="listbox" id="palette-results" aria-label="Results">
            {results.map((target, index) => (
              <NavLink
                key={`${target.kind}-${target.to}`}
                id={`palette-${index}`}
                role="option"
                aria-selected={index === chosen}
                component="button"
                tabIndex={-1}
                active={index === chosen}
                label={target.label}
                description={target.kind}
                styles={{ description: { color: 'inherit', opacity: 1 } }}
                onClick={() => go(target)}
                onMouseEnter={() => setActive(index)}
              />
            ))}
          </div>
          {results.length === 0 ? (
            <Text size="sm" c="dimmed" p="xs">
              Nothing matches “{query}”.
            </Text>
          ) : null}
        </ScrollArea.Autosize>
        <Text size="xs" c="dimmed">
          ↑ ↓ to choose, Enter to go, Esc to close. Tasks: the {TASKS_SEARCHED} most recent.
        </Text>
      </Stack>
    </Modal>
  );
}
