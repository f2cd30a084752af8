import type { Schemas } from '@app/client';

import { humanize } from '../../app/format';

export type Agent = Schemas['AgentConfig'];
export type AutonomyLevel = Schemas['AgentAutonomy']['level'];

const LEVELS: Record<string, string> = {
  junior: 'Junior',
  mid: 'Mid-level',
  senior: 'Senior',
  lead: 'Lead',
  principal: 'Principal',
  director: 'Director',
  vp: 'VP',
  c_suite: 'C-suite',
};

/** "senior" → "Senior", "c_suite" → "C-suite". */
export function levelLabel(level: string | null | undefined): string {
  return level ? (LEVELS[level] ?? humanize(level)) : '—';
}

/** Department keys are lower-case words: "engineering" → "Engineering". */
export function departmentLabel(name: string | null | undefined): string {
  return name ? humanize(name) : 'No department';
}

export const STATUS_COLOR: Record<Agent['status'], string> = {
  active: 'green',
  onboarding: 'blue',
  on_leave: 'yellow',
  terminated: 'gray',
};

export const AUTONOMY_LEVELS: ReadonlyArray<{ value: AutonomyLevel; label: string; hint: string }> = [
  { value: 'full', label: 'Full', hint: 'Acts on its own; only the riskiest actions go to a person' },
  { value: 'semi', label: 'Semi', hint: 'Routine work on its own; consequential actions go to a person' },
  { value: 'supervised', label: 'Supervised', hint: 'Most actions wait for a person' },
  { value: 'locked', label: 'Locked', hint: 'Every action waits for a person' },
];

export function autonomyLabel(level: string | null | undefined): string {
  if (!level) {
    return 'Inherited';
  }
  return AUTONOMY_LEVELS.find((l) => l.value === level)?.label ?? humanize(level);
}

/** The path of an agent's page (names may hold spaces and other characters). */
export function agentPath(name: string): string {
  return `/agents/${encodeURIComponent(name)}`;
}
