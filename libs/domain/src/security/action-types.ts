import { ErrorCode, ValidationError } from '../errors';

/** The 26 action types an agent's tool calls are classified as, in `category:action` form. */
export const ACTION_TYPES = [
  'code:read',
  'code:write',
  'code:create',
  'code:delete',
  'code:refactor',
  'test:write',
  'test:run',
  'docs:write',
  'vcs:read',
  'vcs:commit',
  'vcs:push',
  'vcs:branch',
  'deploy:staging',
  'deploy:production',
  'comms:internal',
  'comms:external',
  'budget:spend',
  'budget:exceed',
  'org:hire',
  'org:fire',
  'org:promote',
  'db:query',
  'db:mutate',
  'db:admin',
  'arch:decide',
  'memory:read',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** The categories of the action types: the part before the colon. */
export const ACTION_CATEGORIES = [
  'code',
  'test',
  'docs',
  'vcs',
  'deploy',
  'comms',
  'budget',
  'org',
  'db',
  'arch',
  'memory',
] as const;
export type ActionCategory = (typeof ACTION_CATEGORIES)[number];

const ACTION_SET: ReadonlySet<string> = new Set(ACTION_TYPES);
const CATEGORY_SET: ReadonlySet<string> = new Set(ACTION_CATEGORIES);

/** True when the text is one of the 26 action types, exactly. */
export function isActionType(value: string): value is ActionType {
  return ACTION_SET.has(value);
}

/** True when the text is a category name (`code`, `deploy`...). */
export function isActionCategory(value: string): value is ActionCategory {
  return CATEGORY_SET.has(value);
}

/** The category of an action type (`deploy:staging` → `deploy`). */
export function categoryOfAction(action: ActionType): ActionCategory {
  return action.slice(0, action.indexOf(':')) as ActionCategory;
}

/** Every action of a category, in catalogue order. */
export function actionsOfCategory(category: ActionCategory): ActionType[] {
  return ACTION_TYPES.filter((action) => categoryOfAction(action) === category);
}

/**
 * Expands a configured list of action types: a category name stands for all its actions, an action
 * type for itself. Entries are trimmed and lower-cased; the result keeps catalogue order without
 * duplicates. Any unknown entry refuses the whole list, naming every unknown entry and the field.
 */
export function expandActionTypes(entries: readonly string[], field: string): ActionType[] {
  const chosen = new Set<ActionType>();
  const unknown: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (isActionType(entry)) {
      chosen.add(entry);
    } else if (isActionCategory(entry)) {
      actionsOfCategory(entry).forEach((action) => chosen.add(action));
    } else {
      unknown.push(JSON.stringify(raw));
    }
  }
  if (unknown.length > 0) {
    throw new ValidationError(
      `${field}: unknown action type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; ` +
        'use a category:action type or a category name',
      ErrorCode.SecurityActionTypeUnknown,
    );
  }
  return ACTION_TYPES.filter((action) => chosen.has(action));
}
