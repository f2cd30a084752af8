/** Human roles (wire values). `system` is the CLI identity: backup, restore and wipe only. */
export const HumanRole = {
  Ceo: 'ceo',
  Manager: 'manager',
  BoardMember: 'board_member',
  PairProgrammer: 'pair_programmer',
  Observer: 'observer',
  System: 'system',
} as const;
export type HumanRole = (typeof HumanRole)[keyof typeof HumanRole];

export const HUMAN_ROLES: readonly HumanRole[] = Object.values(HumanRole);

/** Roles an account can be created with or changed to through the API (never `system`). */
export const ASSIGNABLE_ROLES: readonly HumanRole[] = HUMAN_ROLES.filter((r) => r !== HumanRole.System);

/** Roles that only read (plus approvals for board members): cost details are redacted for them. */
export const READ_ONLY_ROLES: readonly HumanRole[] = [HumanRole.Observer, HumanRole.BoardMember];

export function isHumanRole(value: unknown): value is HumanRole {
  return typeof value === 'string' && (HUMAN_ROLES as readonly string[]).includes(value);
}

export function isReadOnlyRole(role: HumanRole): boolean {
  return READ_ONLY_ROLES.includes(role);
}

/** The reserved account name of the CLI identity. */
export const SYSTEM_USERNAME = 'system';
export const SYSTEM_USER_ID = 'system';
