import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, OBSERVER, renderPage } from '../../test/render';
import Settings from './Settings';
import { valueProblem } from './SettingsForm';

function definition(key: string, extra: Record<string, unknown> = {}) {
  return {
    namespace: 'backup',
    key,
    type: 'int',
    default: '24',
    description: `The ${key} setting`,
    enum_values: [],
    group: 'Schedule',
    level: 'basic',
    min_value: 1,
    max_value: 168,
    restart_required: false,
    sensitive: false,
    validator_pattern: null,
    yaml_path: null,
    ...extra,
  };
}

const HOURS = definition('schedule_hours');
const PATH = definition('path', {
  type: 'str',
  default: 'backups',
  min_value: null,
  max_value: null,
  restart_required: true,
});
const SCHEMA = { data: [HOURS, PATH, { ...definition('root_log_level'), namespace: 'observability', type: 'enum' }] };

function entry(def: typeof HOURS, value: string, source = 'default', pending = false) {
  return {
    definition: def,
    value,
    source,
    pending_restart: pending,
    updated_at: source === 'db' ? '2026-01-01T10:00:00Z' : null,
  };
}

describe('Settings', () => {
  it('should announce loading, then show an error with its code', async () => {
    fakeApi({ 'GET /api/v1/settings/_schema': { error: 'Settings unavailable', code: 5003, status: 503 } });
    renderPage(<Settings />, { path: '/settings' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the settings');
    expect(await screen.findByRole('alert', { name: 'The settings could not be loaded' })).toHaveTextContent('5003');
  });

  it('should show each value with its source and the restart marks, and no editing for an observer', async () => {
    fakeApi({
      'GET /api/v1/settings/_schema': SCHEMA,
      'GET /api/v1/settings/backup': { data: [entry(HOURS, '12', 'env'), entry(PATH, '/srv/b', 'db', true)] },
    });
    renderPage(<Settings />, { me: OBSERVER, path: '/settings' });
    const hours = await screen.findByRole('listitem', { name: 'Schedule hours' });
    expect(within(hours).getByText('Environment')).toBeInTheDocument();
    expect(within(hours).getByText('12')).toBeInTheDocument();
    const path = screen.getByRole('listitem', { name: 'Path' });
    expect(within(path).getByText('Needs a restart')).toBeInTheDocument();
    expect(within(path).getByText('Saved, applies after restart')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.getByText('Your role can read the settings but not change them.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Backup' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Logging' })).toBeInTheDocument();
  });

  it('should save with the version it read (If-Match) and say when the value applies', async () => {
    let value = '24';
    let ifMatch: string | null = null;
    fakeApi({
      'GET /api/v1/settings/_schema': SCHEMA,
      'GET /api/v1/settings/backup': () => ({ data: [entry(HOURS, value), entry(PATH, 'backups')] }),
      'GET /api/v1/settings/backup/schedule_hours': { data: entry(HOURS, '24'), headers: { etag: '"v1"' } },
      'PUT /api/v1/settings/backup/schedule_hours': (request, body) => {
        ifMatch = request.headers.get('if-match');
        value = (body as { value: string }).value;
        return { data: entry(HOURS, value, 'db') };
      },
    });
    renderPage(<Settings />, { path: '/settings?ns=backup' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Schedule hours' }));
    const input = await screen.findByLabelText('New value of Schedule hours');
    await userEvent.clear(input);
    await userEvent.type(input, '500');
    await userEvent.click(screen.getByRole('button', { name: 'Save Schedule hours' }));
    expect(await screen.findByText('At most 168')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, '6');
    await userEvent.click(screen.getByRole('button', { name: 'Save Schedule hours' }));
    expect(await screen.findByText('Schedule hours was saved and applies now')).toBeInTheDocument();
    expect(ifMatch).toBe('"v1"');
    expect(value).toBe('6');
  });

  it('should explain a conflict: someone else changed the value since it was read', async () => {
    let reads = 0;
    fakeApi({
      'GET /api/v1/settings/_schema': SCHEMA,
      'GET /api/v1/settings/backup': { data: [entry(HOURS, '24'), entry(PATH, 'backups')] },
      'GET /api/v1/settings/backup/schedule_hours': () => {
        reads++;
        return reads === 1
          ? { data: entry(HOURS, '24'), headers: { etag: '"v1"' } }
          : { data: entry(HOURS, '48', 'db'), headers: { etag: '"v2"' } };
      },
      'PUT /api/v1/settings/backup/schedule_hours': {
        error: 'Setting backup.schedule_hours changed',
        code: 4002,
        status: 409,
      },
    });
    renderPage(<Settings />, { path: '/settings?ns=backup' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Schedule hours' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Save Schedule hours' }));
    const alert = await screen.findByRole('alert', { name: 'Changed by someone else' });
    expect(alert).toHaveTextContent('it is now 48 (Saved here)');
    expect(alert).toHaveTextContent('Your value was not saved');
  });

  it('should reset a stored value to its default with If-Match', async () => {
    let removed: string | null = null;
    fakeApi({
      'GET /api/v1/settings/_schema': SCHEMA,
      'GET /api/v1/settings/backup': { data: [entry(HOURS, '6', 'db'), entry(PATH, 'backups')] },
      'GET /api/v1/settings/backup/schedule_hours': { data: entry(HOURS, '6', 'db'), headers: { etag: '"v3"' } },
      'DELETE /api/v1/settings/backup/schedule_hours': (request) => {
        removed = request.headers.get('if-match');
        return { data: null };
      },
    });
    renderPage(<Settings />, { path: '/settings?ns=backup' });
    await userEvent.click(await screen.findByRole('button', { name: 'Reset Schedule hours to default' }));
    await waitFor(() => expect(removed).toBe('"v3"'));
  });

  it('should check values against their definition', () => {
    expect(valueProblem(HOURS as never, '1.5')).toBe('Enter a whole number');
    expect(valueProblem(HOURS as never, '0')).toBe('At least 1');
    expect(valueProblem({ ...HOURS, type: 'json' } as never, '{')).toBe('Not valid JSON');
    expect(valueProblem(PATH as never, 'x')).toBeNull();
  });
});
