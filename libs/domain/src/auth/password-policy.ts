export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
export const USERNAME_MAX_LENGTH = 128;

/** Lockout: this many failed logins within the window lock the account name for the lock duration. */
export const LOCKOUT_MAX_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_DURATION_MS = 15 * 60 * 1000;

/** Returns why a password is unacceptable, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  }
  if (password.trim().length === 0) {
    return 'password must not be blank';
  }
  return null;
}

/**
 * Lockout decision from the times of recent failures (newest last): locked until the failure that
 * reached the threshold plus the lock duration, when that is still in the future.
 */
export function lockedUntil(failureTimes: readonly number[], now: number): number | null {
  const recent = failureTimes.filter((t) => t > now - LOCKOUT_WINDOW_MS - LOCKOUT_DURATION_MS).sort((a, b) => a - b);
  for (let i = LOCKOUT_MAX_FAILURES - 1; i < recent.length; i++) {
    const first = recent[i - (LOCKOUT_MAX_FAILURES - 1)];
    const reached = recent[i];
    if (first !== undefined && reached !== undefined && reached - first <= LOCKOUT_WINDOW_MS) {
      const until = reached + LOCKOUT_DURATION_MS;
      if (until > now) {
        return until;
      }
    }
  }
  return null;
}
