import type { CatalogModel } from '../company/model-matching';
import { ConflictError, ErrorCode } from '../errors';

/** A hiring request's life: pending → approved | rejected; approved → instantiated (engine.md §13). */
export const HIRING_STATUSES = ['pending', 'approved', 'rejected', 'instantiated'] as const;
export type HiringStatus = (typeof HIRING_STATUSES)[number];

/** Wire limits of a hiring request. */
export const HIRING_LIMITS = {
  role: 100,
  department: 128,
  reason: 2000,
  skill: 100,
  skills: 20,
  templateName: 64,
  budgetLimitMonthly: 1_000_000,
  /** Candidates a request offers at most. */
  candidates: 3,
} as const;

/**
 * The monthly token volume a candidate's cost estimate assumes: about fifty tasks of 20k input and
 * 5k output tokens. The estimate is that volume at the model's prices per 1k tokens.
 */
export const ESTIMATE_MONTHLY_TOKENS = { input: 1_000_000, output: 250_000 } as const;

/** A candidate's estimated monthly cost at its model's prices, rounded to cents. */
export function estimateMonthlyCost(model: Pick<CatalogModel, 'costPer1kInput' | 'costPer1kOutput'>): number {
  const cost =
    (ESTIMATE_MONTHLY_TOKENS.input / 1000) * model.costPer1kInput +
    (ESTIMATE_MONTHLY_TOKENS.output / 1000) * model.costPer1kOutput;
  return Math.round(cost * 100) / 100;
}

/**
 * Only an approved request is instantiated: a pending (4080), rejected (4081) or instantiated (4082)
 * one answers 409 with its own code.
 */
export function assertInstantiable(id: string, status: HiringStatus): void {
  switch (status) {
    case 'approved':
      return;
    case 'pending':
      throw new ConflictError(
        `Hiring request "${id}" waits for its approval; only an approved request is instantiated`,
        ErrorCode.HiringRequestPending,
      );
    case 'rejected':
      throw new ConflictError(`Hiring request "${id}" was rejected`, ErrorCode.HiringRequestRejected);
    case 'instantiated':
      throw new ConflictError(`Hiring request "${id}" was already instantiated`, ErrorCode.HiringRequestInstantiated);
  }
}

/** A candidate is chosen while the request is pending or approved (409 with its code otherwise). */
export function assertSelectable(id: string, status: HiringStatus): void {
  if (status === 'rejected') {
    throw new ConflictError(`Hiring request "${id}" was rejected`, ErrorCode.HiringRequestRejected);
  }
  if (status === 'instantiated') {
    throw new ConflictError(`Hiring request "${id}" was already instantiated`, ErrorCode.HiringRequestInstantiated);
  }
}

/**
 * The personality preset a new role gets when no template names one: the first keyword of the role
 * found in this table, else the default builder.
 */
const ROLE_PRESETS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(ceo|chief|founder|president|vp|director|head)\b/, 'visionary_leader'],
  [/\b(cto|architect|platform)\b/, 'systems_thinker'],
  [/\b(security|secops|pentest\w*)\b/, 'security_sentinel'],
  [/\b(qa|quality|test\w*)\b/, 'quality_guardian'],
  [/\b(data|analyst|analytics|scientist)\b/, 'data_driven_optimizer'],
  [/\b(research\w*)\b/, 'independent_researcher'],
  [/\b(design\w*|ux|ui)\b/, 'creative_innovator'],
  [/\b(product|owner)\b/, 'user_advocate'],
  [/\b(writer|documentation|docs|technical writer)\b/, 'technical_communicator'],
  [/\b(marketing|growth)\b/, 'growth_hacker'],
  [/\b(operations|ops|devops|sre)\b/, 'process_optimizer'],
  [/\b(manager|lead|coach|mentor)\b/, 'empathetic_mentor'],
  [/\b(planner|strategist|strategy)\b/, 'strategic_planner'],
  [/\b(prototyp\w*|hacker)\b/, 'rapid_prototyper'],
  [/\b(intern|junior|trainee)\b/, 'eager_learner'],
];

/** The built-in preset fitting a role by its words (`pragmatic_builder` when nothing fits). */
export function presetForRole(role: string): string {
  const words = role.toLowerCase();
  for (const [pattern, preset] of ROLE_PRESETS) {
    if (pattern.test(words)) {
      return preset;
    }
  }
  return 'pragmatic_builder';
}
