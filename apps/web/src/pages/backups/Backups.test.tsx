import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, OBSERVER, renderPage } from '../../test/render';
import Backups, { formatBytes } from './Backups';

const BACKUP = {
  backup_id: 'aaaaaaaaaaaa',
  components: ['persistence', 'config'],
  compressed: true,
  size_bytes: 20480,
  timestamp: '2026-01-01T10:00:00Z',
  trigger: 'manual',
};
const MANIFEST = { ...BACKUP, checksum: 'f'.repeat(64), synthorg_version: '0.6.1' };
const SETTINGS = { data: [] };

describe('Backups', () => {
  it('should refuse another role and ask nothing', () => {
    const api = fakeApi({});
    renderPage(<Backups />, { me: OBSERVER, path: '/backups' });
    expect(screen.getByText('Only the CEO manages backups')).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('should show loading, an error with its code, and the empty list', async () => {
    fakeApi({
      'GET /api/v1/admin/backups': { error: 'Down', code: 5003, status: 503 },
      'GET /api/v1/settings/backup': SETTINGS,
    });
    const first = renderPage(<Backups />, { path: '/backups' });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('Loading');
    expect(await screen.findByRole('alert', { name: 'The backups could not be loaded' })).toHaveTextContent('5003');
    first.unmount();
    fakeApi({
      'GET /api/v1/admin/backups': { data: [], pagination: { total: 0, offset: 0, limit: 20 } },
      'GET /api/v1/settings/backup': SETTINGS,
    });
    renderPage(<Backups />, { path: '/backups' });
    expect(await screen.findByRole('heading', { name: 'No backups yet' })).toBeInTheDocument();
  });

  it('should take a backup and restore one after confirming, showing the safety backup', async () => {
    let list = [BACKUP];
    const api = fakeApi({
      'GET /api/v1/admin/backups': () => ({ data: list, pagination: { total: list.length, offset: 0, limit: 20 } }),
      'GET /api/v1/admin/backups/aaaaaaaaaaaa': { data: MANIFEST },
      'GET /api/v1/admin/backups/bbbbbbbbbbbb': { data: { ...MANIFEST, backup_id: 'bbbbbbbbbbbb' } },
      'GET /api/v1/settings/backup': SETTINGS,
      'POST /api/v1/admin/backups': () => {
        list = [{ ...BACKUP, backup_id: 'bbbbbbbbbbbb' }, ...list];
        return { data: { ...MANIFEST, backup_id: 'bbbbbbbbbbbb' }, status: 201 };
      },
      'POST /api/v1/admin/backups/restore': {
        data: {
          manifest: MANIFEST,
          restart_required: false,
          restored_components: ['persistence', 'config'],
          safety_backup_id: 'cccccccccccc',
        },
      },
    });
    renderPage(<Backups />, { path: '/backups' });
    const table = await screen.findByRole('table', { name: 'Backups' });
    expect(within(table).getByText('20.0 KB (compressed)')).toBeInTheDocument();
    expect(await within(table).findByText('ffffffffffff…')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    expect(await within(table).findByText('bbbbbbbbbbbb')).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: 'Restore backup aaaaaaaaaaaa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore backup aaaaaaaaaaaa?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Restore aaaaaaaaaaaa' }));
    expect(await within(dialog).findByText('cccccccccccc')).toBeInTheDocument();
    await waitFor(() =>
      expect(api.calls.find((c) => c.route === 'POST /api/v1/admin/backups/restore')?.body).toEqual({
        backup_id: 'aaaaaaaaaaaa',
        confirm: true,
      }),
    );
  });

  it('should size backups', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
