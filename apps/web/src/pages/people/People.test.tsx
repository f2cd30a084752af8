import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import People from './People';

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

function user(id: string, username: string, role: string) {
  return {
    id,
    username,
    role,
    department: null,
    must_change_password: false,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
}

const SESSIONS = {
  data: [
    {
      session_id: 's-1',
      user_id: 'u-ceo',
      username: 'ceo',
      ip_address: '127.0.0.1',
      user_agent: null,
      created_at: '2026-01-01T00:00:00Z',
      last_active_at: new Date().toISOString(),
      expires_at: '2026-01-02T00:00:00Z',
      is_current: true,
    },
    {
      session_id: 's-9',
      user_id: 'u-2',
      username: 'ann',
      ip_address: '10.0.0.2',
      user_agent: null,
      created_at: '2026-01-01T00:00:00Z',
      last_active_at: new Date().toISOString(),
      expires_at: '2026-01-02T00:00:00Z',
      is_current: false,
    },
  ],
};

describe('People', () => {
  it('should tell another role that only the CEO manages people, and ask nothing', () => {
    const api = fakeApi({});
    renderPage(<People />, { me: OBSERVER, path: '/people' });
    expect(screen.getByText('Only the CEO manages people')).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('should show loading, then an error with its code', async () => {
    fakeApi({
      'GET /api/v1/users': { error: 'No', code: 5003, status: 503 },
      'GET /api/v1/auth/sessions': SESSIONS,
      'GET /api/v1/setup/status': STATUS,
    });
    renderPage(<People />, { path: '/people' });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Loading');
    expect(await screen.findByRole('alert', { name: 'The people could not be loaded' })).toHaveTextContent('5003');
  });

  it('should create a person, change a role and delete with confirmation', async () => {
    let users = [user('u-ceo', 'ceo', 'ceo'), user('u-2', 'ann', 'manager')];
    const api = fakeApi({
      'GET /api/v1/setup/status': STATUS,
      'GET /api/v1/users': () => ({ data: users, pagination: { total: users.length, offset: 0, limit: 25 } }),
      'GET /api/v1/auth/sessions': SESSIONS,
      'POST /api/v1/users': (_r, body) => {
        const b = body as { username: string; role: string };
        users = [...users, user('u-3', b.username, b.role)];
        return { data: users[2], status: 201 };
      },
      'PATCH /api/v1/users/u-2': (_r, body) => {
        users = users.map((u) => (u.id === 'u-2' ? { ...u, role: (body as { role: string }).role } : u));
        return { data: users[1] };
      },
      'DELETE /api/v1/users/u-2': () => {
        users = users.filter((u) => u.id !== 'u-2');
        return { data: null };
      },
    });
    renderPage(<People />, { me: CEO, path: '/people' });
    const table = await screen.findByRole('table', { name: 'People' });
    expect(within(table).getByText('You')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Delete ceo' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'New person' }));
    await userEvent.type(screen.getByLabelText('Username'), 'bob');
    await userEvent.type(screen.getByLabelText(/^First password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Use at least 12 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^First password/), '-but-long-now');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'board_member');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await within(table).findByText('bob')).toBeInTheDocument();
    expect(api.calls.find((c) => c.route === 'POST /api/v1/users')?.body).toEqual({
      username: 'bob',
      password: 'short-but-long-now',
      role: 'board_member',
    });

    await userEvent.selectOptions(within(table).getByLabelText('Role of ann'), 'observer');
    await waitFor(() =>
      expect(api.calls.find((c) => c.route === 'PATCH /api/v1/users/u-2')?.body).toEqual({
        role: 'observer',
        department: null,
      }),
    );

    await userEvent.click(within(table).getByRole('button', { name: 'Delete ann' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete ann?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete ann' }));
    await waitFor(() => expect(within(table).queryByText('ann')).not.toBeInTheDocument());
  });

  it("should list everyone's sessions and sign one out", async () => {
    const api = fakeApi({
      'GET /api/v1/setup/status': STATUS,
      'GET /api/v1/users': { data: [user('u-ceo', 'ceo', 'ceo')], pagination: { total: 1, offset: 0, limit: 25 } },
      'GET /api/v1/auth/sessions': SESSIONS,
      'DELETE /api/v1/auth/sessions/s-9': { data: null },
    });
    renderPage(<People />, { path: '/people' });
    const sessions = await screen.findByRole('table', { name: 'Active sessions' });
    expect(within(sessions).getByText('This session')).toBeInTheDocument();
    await userEvent.click(within(sessions).getByRole('button', { name: /Sign out the session of ann/ }));
    await waitFor(() => expect(api.calls.map((c) => c.route)).toContain('DELETE /api/v1/auth/sessions/s-9'));
    expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/auth/sessions?scope=all');
  });
});
