import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import Account, { deviceName } from './Account';

const STATUS = {
  data: {
    needs_admin: false,
    needs_setup: false,
    has_company: true,
    has_agents: true,
    has_providers: true,
    has_name_locales: false,
    min_password_length: 12,
  },
};
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';

function session(id: string, current: boolean, userAgent: string | null) {
  return {
    session_id: id,
    user_id: 'u-ceo',
    username: 'ceo',
    ip_address: current ? '127.0.0.1' : '10.0.0.7',
    user_agent: userAgent,
    created_at: '2026-01-01T09:00:00Z',
    last_active_at: new Date(Date.now() - 120_000).toISOString(),
    expires_at: '2026-01-02T09:00:00Z',
    is_current: current,
  };
}

describe('Account', () => {
  it('should name the device of a session from its user agent', () => {
    expect(deviceName(CHROME)).toBe('Chrome on Linux');
    expect(deviceName(FIREFOX)).toBe('Firefox on Windows');
    expect(deviceName('curl/8.5.0')).toBe('curl');
    expect(deviceName('node')).toBe('node');
    expect(deviceName(null)).toBe('Unknown device');
  });

  it('should announce loading while the sessions load', () => {
    fakeApi({ 'GET /api/v1/setup/status': STATUS, 'GET /api/v1/auth/sessions': { pending: true } });
    renderPage(<Account />, { path: '/account' });
    expect(screen.getByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading your sessions');
  });

  it('should show why the sessions could not be loaded, with the code', async () => {
    fakeApi({
      'GET /api/v1/setup/status': STATUS,
      'GET /api/v1/auth/sessions': { error: 'Database unavailable', code: 5003, status: 503 },
    });
    renderPage(<Account />, { path: '/account' });
    const alert = await screen.findByRole('alert', { name: 'Your sessions could not be loaded' });
    expect(alert).toHaveTextContent('5003');
  });

  it('should say what an empty list of sessions means', async () => {
    fakeApi({ 'GET /api/v1/setup/status': STATUS, 'GET /api/v1/auth/sessions': { data: [] } });
    renderPage(<Account />, { me: OBSERVER, path: '/account' });
    expect(await screen.findByRole('heading', { name: 'No active sessions' })).toBeInTheDocument();
    expect(screen.getByText(/Signed in as watcher \(Observer\)/)).toBeInTheDocument();
  });

  it('should list the current session first, marked, and sign out another one', async () => {
    let sessions = [session('s-2', false, FIREFOX), session('s-1', true, CHROME)];
    const api = fakeApi({
      'GET /api/v1/setup/status': STATUS,
      'GET /api/v1/auth/sessions': () => ({ data: sessions }),
      'DELETE /api/v1/auth/sessions/s-2': () => {
        sessions = sessions.filter((s) => s.session_id !== 's-2');
        return { data: null };
      },
    });
    renderPage(<Account />, { me: CEO, path: '/account' });
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Chrome on Linux');
    expect(rows[1]).toHaveTextContent('This session');
    expect(within(rows[1]).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Firefox on Windows');
    expect(rows[2]).toHaveTextContent('10.0.0.7');
    expect(rows[2]).toHaveTextContent('2 minutes ago');

    await userEvent.click(within(rows[2]).getByRole('button', { name: /Sign out the session on Firefox on Windows/ }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(api.calls.map((c) => c.route)).toContain('DELETE /api/v1/auth/sessions/s-2');
  });

  it('should sign out every other session at once', async () => {
    let sessions = [session('s-1', true, CHROME), session('s-2', false, FIREFOX), session('s-3', false, null)];
    const api = fakeApi({
      'GET /api/v1/setup/status': STATUS,
      'GET /api/v1/auth/sessions': () => ({ data: sessions }),
      'DELETE /api/v1/auth/sessions/s-2': () => {
        sessions = sessions.filter((s) => s.session_id !== 's-2');
        return { data: null };
      },
      'DELETE /api/v1/auth/sessions/s-3': () => {
        sessions = sessions.filter((s) => s.session_id !== 's-3');
        return { data: null };
      },
    });
    renderPage(<Account />, { path: '/account' });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out all other sessions' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(api.calls.filter((c) => c.route.startsWith('DELETE')).map((c) => c.route)).toEqual([
      'DELETE /api/v1/auth/sessions/s-2',
      'DELETE /api/v1/auth/sessions/s-3',
    ]);
    expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).not.toBeInTheDocument();
  });

  it('should change the password, checking the fields first', async () => {
    const api = fakeApi({
      'GET /api/v1/setup/status': STATUS,
      'GET /api/v1/auth/sessions': { data: [session('s-1', true, CHROME)] },
      'POST /api/v1/auth/change-password': { data: { token: 't2', expires_in: 3600, must_change_password: false } },
    });
    renderPage(<Account />, { path: '/account' });
    await userEvent.type(screen.getByLabelText(/^Current password/), 'old-password-123');
    await userEvent.type(screen.getByLabelText(/^New password/), 'short');
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'different');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Use at least 12 characters')).toBeInTheDocument();
    expect(screen.getByText('The passwords do not match')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText(/^New password/));
    await userEvent.type(screen.getByLabelText(/^New password/), 'a-new-password-1');
    await userEvent.clear(screen.getByLabelText(/^Confirm new password/));
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'a-new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/auth/change-password',
        body: { current_password: 'old-password-123', new_password: 'a-new-password-1' },
      }),
    );
    await waitFor(() => expect(screen.getByLabelText(/^Current password/)).toHaveValue(''));
  });

  it('should insist on a new password when one must be chosen, and show a refusal with its code', async () => {
    const api = fakeApi({
      'GET /api/v1/setup/status': STATUS,
      'POST /api/v1/auth/change-password': { error: 'The current password is wrong', code: 1000, status: 400 },
    });
    renderPage(<Account />, { me: { ...CEO, must_change_password: true }, path: '/account?change_password=1' });
    expect(screen.getByText('Choose a new password to continue')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your sessions' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Current password/)).toHaveFocus();

    await userEvent.type(screen.getByLabelText(/^Current password/), 'wrong-password');
    await userEvent.type(screen.getByLabelText(/^New password/), 'a-new-password-1');
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), 'a-new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const alert = await screen.findByRole('alert', { name: 'The password was not changed' });
    expect(alert).toHaveTextContent('The current password is wrong');
    expect(alert).toHaveTextContent('1000');
    expect(api.calls.some((c) => c.route.startsWith('GET /api/v1/auth/sessions'))).toBe(false);
  });
});
