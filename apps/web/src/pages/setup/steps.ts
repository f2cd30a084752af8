import type { Schemas } from '@app/client';

export type SetupStatus = Schemas['SetupStatusResponse'];

/** The wizard's steps, in order; each is also the last segment of its address (/setup/<key>). */
export const STEPS = [
  { key: 'account', label: 'Account', description: 'The CEO sign-in' },
  { key: 'company', label: 'Company', description: 'Name and template' },
  { key: 'provider', label: 'Provider', description: 'Where models run' },
  { key: 'agents', label: 'Agents', description: 'Review the team' },
  { key: 'finish', label: 'Finish', description: 'Check and start' },
] as const;

export type StepKey = (typeof STEPS)[number]['key'];

export function stepIndex(key: StepKey): number {
  return STEPS.findIndex((step) => step.key === key);
}

function isStepKey(value: string | undefined): value is StepKey {
  return STEPS.some((step) => step.key === value);
}

/**
 * The furthest step the service's own state allows: no CEO yet → the account; no company → the
 * company; no provider → the provider; otherwise the team can be reviewed and setup finished.
 */
export function furthestStep(status: SetupStatus): StepKey {
  if (status.needs_admin) {
    return 'account';
  }
  if (!status.has_company) {
    return 'company';
  }
  if (!status.has_providers) {
    return 'provider';
  }
  return 'finish';
}

/** Where a fresh visit (no step in the address) continues: the first step still to do. */
export function resumeStep(status: SetupStatus): StepKey {
  const furthest = furthestStep(status);
  return furthest === 'finish' ? 'agents' : furthest;
}

/**
 * The step to show for the address the person opened: a step already reached may be revisited; a
 * step not reached yet (or the account once it exists) gives way to the step the service says is next.
 */
export function resolveStep(requested: string | undefined, status: SetupStatus): StepKey {
  if (!isStepKey(requested)) {
    return resumeStep(status);
  }
  if (requested === 'account') {
    return status.needs_admin ? 'account' : resumeStep(status);
  }
  return stepIndex(requested) <= stepIndex(furthestStep(status)) ? requested : resumeStep(status);
}
