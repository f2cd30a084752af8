import type { HumanRole } from '@app/domain';

import type { TestApp } from './test-app';

export const TEST_PASSWORD = 'correct-horse-battery-staple';
export const NEW_PASSWORD = 'another-long-password-2026';

/** Asserts the error envelope of a failed request and its 4-digit code (and category when given). */
export function expectError(body: Record<string, unknown>, code: number, category?: string): void {
  expect(body).toMatchObject({ data: null, success: false, error: expect.any(String) });
  const detail = body.error_detail as { error_code: number; error_category: string };
  expect(detail.error_code).toBe(code);
  if (category) {
    expect(detail.error_category).toBe(category);
  }
}

export function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

/** First-run setup: creates the CEO and returns its token. */
export async function setupCeo(t: TestApp, username = 'ceo', password = TEST_PASSWORD): Promise<string> {
  const res = await t.http.post('/api/v1/auth/setup').send({ username, password }).expect(201);
  return (res.body as { data: { token: string } }).data.token;
}

export async function login(t: TestApp, username: string, password: string): Promise<string> {
  const res = await t.http.post('/api/v1/auth/login').send({ username, password }).expect(200);
  return (res.body as { data: { token: string } }).data.token;
}

/**
 * A ready-to-use account of the given role (a manager optionally scoped to `department`): created by
 * the CEO, logged in, password changed.
 */
export async function userWithRole(
  t: TestApp,
  ceoToken: string,
  role: HumanRole,
  username: string = role,
  department?: string,
): Promise<string> {
  await t.http
    .post('/api/v1/users')
    .set(bearer(ceoToken))
    .send({ username, password: TEST_PASSWORD, role, ...(department ? { department } : {}) })
    .expect(201);
  const first = await login(t, username, TEST_PASSWORD);
  const changed = await t.http
    .post('/api/v1/auth/change-password')
    .set(bearer(first))
    .send({ current_password: TEST_PASSWORD, new_password: NEW_PASSWORD })
    .expect(200);
  return (changed.body as { data: { token: string } }).data.token;
}
