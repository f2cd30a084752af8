import { HumanRole } from './roles';

/**
 * Every protected route declares exactly one permission; this table is the one place that says
 * which roles hold it. A route without a permission and without @Public() is refused (and a test
 * walks every registered route to prove none is left unguarded).
 */
export const Permission = {
  /** Read any organisation resource (GETs, WebSocket). */
  Read: 'read',
  /** Mutate work: tasks, projects, artifacts, meetings, personalities, providers, reports. */
  Write: 'write',
  /** Approve or reject pending approvals. */
  Approve: 'approve',
  /** Department-level authority: ceremony policies, settings. */
  Manage: 'manage',
  /** Account administration: /users, all sessions, first-run setup wizard writes. */
  Administer: 'administer',
  /** Backup, restore and wipe. */
  Backup: 'backup',
  /** Own account: me, password change, own sessions, logout, WebSocket tickets. */
  Self: 'self',
  /** Read and verify the tamper-evident audit trail (auditors: the CEO and the Board Member). */
  Audit: 'audit',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];

const { Ceo, Manager, BoardMember, PairProgrammer, Observer, System } = HumanRole;

export const PERMISSION_ROLES: Readonly<Record<Permission, readonly HumanRole[]>> = {
  read: [Ceo, Manager, BoardMember, PairProgrammer, Observer],
  write: [Ceo, Manager, PairProgrammer],
  approve: [Ceo, Manager, BoardMember],
  manage: [Ceo, Manager],
  administer: [Ceo],
  backup: [Ceo, System],
  self: [Ceo, Manager, BoardMember, PairProgrammer, Observer],
  audit: [Ceo, BoardMember],
};

export function roleHasPermission(role: HumanRole, permission: Permission): boolean {
  return PERMISSION_ROLES[permission].includes(role);
}
