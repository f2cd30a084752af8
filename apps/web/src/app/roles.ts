import type { Schemas } from '@app/client';

export type Role = Schemas['UserInfoResponse']['role'];

/**
 * Which controls a role is offered. The server decides every request; this only hides what a role
 * cannot use, following the interface's permission table.
 */
const ABILITIES = {
  write: ['ceo', 'manager', 'pair_programmer'],
  approve: ['ceo', 'manager', 'board_member'],
  manage: ['ceo', 'manager'],
  administer: ['ceo'],
  audit: ['ceo', 'board_member'],
} as const satisfies Record<string, readonly Role[]>;

export type Ability = keyof typeof ABILITIES;

export function can(role: Role | undefined, ability: Ability): boolean {
  return role !== undefined && (ABILITIES[ability] as readonly Role[]).includes(role);
}

export const ROLE_LABELS: Record<string, string> = {
  ceo: 'CEO',
  manager: 'Manager',
  board_member: 'Board member',
  pair_programmer: 'Pair programmer',
  observer: 'Observer',
  system: 'System',
};
