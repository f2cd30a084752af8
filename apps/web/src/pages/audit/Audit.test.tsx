import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import Audit, { verificationText } from './Audit';

const ROW = {
  id: 'a-1',
  seq: 7,
  at: '2026-01-01T10:00:00Z',
  actor: 'ceo',
  action: 'settings.update',
  target: 'backup.schedule_hours',
  outcome: 'success',
  details: { value: '6' },
  hash: 'abc',
  prev_hash: 'def',
  request_id: 'r-1',
};

describe('Audit', () => {
  it('should refuse a role without access and ask nothing', () => {
    const api = fakeApi({});
    renderPage(<Audit />, { me: OBSERVER, path: '/audit' });
    expect(screen.getByText('The audit trail is for the CEO and the board')).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('should show loading, an error with its code, and an empty result', async () => {
    fakeApi({ 'GET /api/v1/audit': { error: 'Down', code: 5003, status: 503 } });
    const first = renderPage(<Audit />, { path: '/audit' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the audit trail');
    expect(await screen.findByRole('alert', { name: 'The audit trail could not be loaded' })).toHaveTextContent('5003');
    first.unmount();
    fakeApi({ 'GET /api/v1/audit': { data: [], pagination: { total: 0, offset: 0, limit: 50 } } });
    renderPage(<Audit />, { path: '/audit' });
    expect(await screen.findByRole('heading', { name: 'No matching rows' })).toBeInTheDocument();
  });

  it('should filter, open a row and verify the chain', async () => {
    const api = fakeApi({
      'GET /api/v1/audit': { data: [ROW], pagination: { total: 1, offset: 0, limit: 50 } },
      'GET /api/v1/audit/verify': { data: { ok: false, checked: 9, broken_seq: 4, reason: 'hash_mismatch' } },
    });
    renderPage(<Audit />, { me: { ...CEO, role: 'board_member' }, path: '/audit' });
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    await userEvent.type(screen.getByLabelText('Actor'), 'ceo');
    await userEvent.type(screen.getByLabelText('Action'), 'settings.update');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(api.calls.map((c) => c.route)).toContain(
        'GET /api/v1/audit?offset=0&limit=50&actor=ceo&action=settings.update',
      ),
    );
    await userEvent.click(within(table).getByRole('button', { name: 'Details of row 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Audit row 7' });
    expect(within(dialog).getByText('backup.schedule_hours')).toBeInTheDocument();
    expect(within(dialog).getByText(/"value": "6"/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close dialog' }));
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert', { name: 'Verification failed' })).toHaveTextContent('broken at row 4');
  });

  it('should word the verification', () => {
    expect(verificationText({ ok: true, checked: 1, broken_seq: null, reason: null })).toBe(
      'The trail is intact: 1 row checked.',
    );
    expect(verificationText({ ok: false, checked: 3, broken_seq: 2, reason: 'gap' } as never)).toContain(
      'missing (deleted)',
    );
  });
});
