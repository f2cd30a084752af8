import {
  ASSIGNABLE_ROLES,
  HumanRole,
  LOCKOUT_DURATION_MS,
  LOCKOUT_WINDOW_MS,
  lockedUntil,
  passwordProblem,
  Permission,
  PERMISSION_ROLES,
  roleHasPermission,
} from '.';

describe('permission table', () => {
  it('should never let the system identity read or write organisation data', () => {
    for (const permission of Object.values(Permission)) {
      expect(roleHasPermission(HumanRole.System, permission)).toBe(permission === Permission.Backup);
    }
  });

  it('should make observers read-only and board members read plus approve', () => {
    const granted = (role: HumanRole) => Object.values(Permission).filter((p) => roleHasPermission(role, p));
    expect(granted(HumanRole.Observer)).toEqual([Permission.Read, Permission.Self]);
    expect(granted(HumanRole.BoardMember)).toEqual([
      Permission.Read,
      Permission.Approve,
      Permission.Self,
      Permission.Audit,
    ]);
  });

  it('should reserve administration to the CEO and backups to the CEO and the system identity', () => {
    expect(PERMISSION_ROLES.administer).toEqual([HumanRole.Ceo]);
    expect(PERMISSION_ROLES.backup).toEqual([HumanRole.Ceo, HumanRole.System]);
  });

  it('should give managers department authority and pair programmers write but not manage', () => {
    expect(roleHasPermission(HumanRole.Manager, Permission.Manage)).toBe(true);
    expect(roleHasPermission(HumanRole.PairProgrammer, Permission.Write)).toBe(true);
    expect(roleHasPermission(HumanRole.PairProgrammer, Permission.Manage)).toBe(false);
  });

  it('should not offer the system role for assignment', () => {
    expect(ASSIGNABLE_ROLES).not.toContain(HumanRole.System);
  });
});

describe(passwordProblem.name, () => {
  it('should accept 12 to 128 characters', () => {
    expect(passwordProblem('a'.repeat(12))).toBeNull();
    expect(passwordProblem('a'.repeat(128))).toBeNull();
  });

  it('should reject short, long and blank passwords', () => {
    expect(passwordProblem('a'.repeat(11))).toMatch(/at least 12/);
    expect(passwordProblem('a'.repeat(129))).toMatch(/at most 128/);
    expect(passwordProblem(' '.repeat(12))).toMatch(/blank/);
  });
});

describe(lockedUntil.name, () => {
  const now = 1_000_000_000;

  it('should not lock below ten failures', () => {
    expect(
      lockedUntil(
        Array.from({ length: 9 }, (_, i) => now - i * 1000),
        now,
      ),
    ).toBeNull();
  });

  it('should lock for fifteen minutes after the tenth failure within fifteen minutes', () => {
    const failures = Array.from({ length: 10 }, (_, i) => now - (9 - i) * 1000);
    expect(lockedUntil(failures, now)).toBe(now + LOCKOUT_DURATION_MS);
  });

  it('should not lock when the ten failures spread over more than the window', () => {
    const failures = Array.from({ length: 10 }, (_, i) => now - (9 - i) * (LOCKOUT_WINDOW_MS / 8));
    expect(lockedUntil(failures, now)).toBeNull();
  });

  it('should release the lock once it has run out', () => {
    const failures = Array.from({ length: 10 }, (_, i) => now - LOCKOUT_DURATION_MS - 10_000 + i);
    expect(lockedUntil(failures, now)).toBeNull();
  });
});
