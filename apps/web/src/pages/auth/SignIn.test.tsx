import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, renderPage } from '../../test/render';
import SignIn from './SignIn';

const READY = { data: { needs_admin: false, needs_setup: false, has_company: true, has_providers: true } };

describe('SignIn', () => {
  it('should sign in with the accessible fields and return to the page the person came from', async () => {
    const api = fakeApi({
      'GET /api/v1/setup/status': READY,
      'POST /api/v1/auth/login': { data: { token: 't', expires_in: 3600, must_change_password: false } },
    });
    renderPage(<SignIn />, { me: null, path: '/login?next=%2Ftasks' });
    await userEvent.type(screen.getByLabelText(/Username/), 'ceo');
    await userEvent.type(screen.getByLabelText(/Password/), 'a-long-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        route: 'POST /api/v1/auth/login',
        body: { username: 'ceo', password: 'a-long-password-1' },
      }),
    );
  });

  it('should show the message and code of a refused sign-in', async () => {
    fakeApi({
      'GET /api/v1/setup/status': READY,
      'POST /api/v1/auth/login': { error: 'Invalid username or password', code: 1000, status: 401 },
    });
    renderPage(<SignIn />, { me: null, path: '/login' });
    await userEvent.type(screen.getByLabelText(/Username/), 'ceo');
    await userEvent.type(screen.getByLabelText(/Password/), 'wrong-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(screen.getByRole('alert')).toHaveTextContent('1000');
  });
});
