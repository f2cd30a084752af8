import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, OBSERVER, renderPage } from '../../test/render';
import Artifacts, { previewKind } from './Artifacts';

const ARTIFACT = {
  id: 'ar-1',
  task_id: 't-123456789',
  created_by: 'Ada',
  path: 'README.md',
  type: 'documentation',
  content_type: 'text/markdown',
  description: 'The readme',
  size_bytes: 2048,
  sha256: 'a'.repeat(64),
  project_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
const PAGE = (items: unknown[]) => ({ data: items, pagination: { total: items.length, offset: 0, limit: 25 } });

describe('Artifacts', () => {
  it('should show loading, an error with its code, and the empty list', async () => {
    fakeApi({ 'GET /api/v1/artifacts': { error: 'Down', code: 5003, status: 503 } });
    const first = renderPage(<Artifacts />, { path: '/artifacts' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the artifacts');
    expect(await screen.findByRole('alert', { name: 'The artifacts could not be loaded' })).toHaveTextContent('5003');
    first.unmount();
    fakeApi({ 'GET /api/v1/artifacts': PAGE([]) });
    renderPage(<Artifacts />, { path: '/artifacts' });
    expect(await screen.findByRole('heading', { name: 'No artifacts' })).toBeInTheDocument();
  });

  it('should filter, preview text, and delete', async () => {
    let items = [ARTIFACT];
    const api = fakeApi({
      'GET /api/v1/artifacts': () => PAGE(items),
      'GET /api/v1/artifacts/ar-1/content': () => ({ data: '# Hello' }),
      'DELETE /api/v1/artifacts/ar-1': () => {
        items = [];
        return { data: null };
      },
    });
    renderPage(<Artifacts />, { path: '/artifacts' });
    const table = await screen.findByRole('table', { name: 'Artifacts' });
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'code');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/artifacts?offset=0&limit=25&type=code'),
    );
    expect(within(table).getByRole('link', { name: 'Download README.md' })).toHaveAttribute(
      'href',
      '/api/v1/artifacts/ar-1/content',
    );
    await userEvent.click(within(table).getByRole('button', { name: 'Preview README.md' }));
    const dialog = await screen.findByRole('dialog', { name: 'README.md' });
    expect(await within(dialog).findByText(/# Hello/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close dialog' }));
    await userEvent.click(within(table).getByRole('button', { name: 'Delete README.md' }));
    expect(await screen.findByRole('heading', { name: 'No artifacts' })).toBeInTheDocument();
  });

  it('should offer an observer neither upload nor delete, and know what previews', async () => {
    fakeApi({ 'GET /api/v1/artifacts': PAGE([ARTIFACT]) });
    renderPage(<Artifacts />, { me: OBSERVER, path: '/artifacts' });
    await screen.findByRole('table', { name: 'Artifacts' });
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete README.md' })).not.toBeInTheDocument();
    expect(previewKind('image/png')).toBe('image');
    expect(previewKind('application/json')).toBe('text');
    expect(previewKind('application/zip')).toBeNull();
  });
});
