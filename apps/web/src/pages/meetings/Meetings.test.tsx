import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, OBSERVER, renderPage } from '../../test/render';
import Meetings, { MeetingDetail, tokensUsed } from './Meetings';

const MINUTES = {
  meeting_id: 'm-1',
  leader_id: 'a-1',
  participant_ids: ['a-1', 'a-2'],
  protocol_type: 'round_robin',
  started_at: '2026-01-01T10:00:00Z',
  ended_at: '2026-01-01T10:05:00Z',
  summary: 'We plan the launch.',
  conflicts_detected: false,
  agenda: { title: 'Kickoff', context: '', items: [{ title: 'Plan the launch', description: '', presenter_id: null }] },
  contributions: [
    {
      agent_id: 'a-1',
      content: 'Let us ship.',
      phase: 'round_robin_turn',
      turn_number: 1,
      input_tokens: 10,
      output_tokens: 5,
      timestamp: '2026-01-01T10:01:00Z',
    },
  ],
  decisions: ['Ship on Monday'],
  action_items: [{ description: 'Write the release notes', assignee_id: 'a-2', priority: 'high' }],
  total_input_tokens: 10,
  total_output_tokens: 5,
};
const MEETING = {
  meeting_id: 'm-1',
  meeting_type_name: 'kickoff',
  status: 'completed',
  protocol_type: 'round_robin',
  token_budget: 1000,
  token_usage_by_participant: { 'a-1': 15, 'a-2': 0 },
  participant_names: { 'a-1': 'Ada', 'a-2': 'Grace' },
  contribution_rank: ['a-1'],
  error_message: null,
  meeting_duration_seconds: 300,
  minutes: MINUTES,
};
const TASK = {
  id: 't-9',
  title: 'Write the release notes',
  description: 'Action item of the meeting "kickoff" (m-1): Write the release notes',
};
const TYPES = {
  data: [
    {
      definition: { key: 'meeting_types', namespace: 'coordination' },
      value: '[{"name":"kickoff","trigger":"sprint_start"}]',
      source: 'db',
      pending_restart: false,
      updated_at: null,
    },
  ],
};

describe('Meetings', () => {
  it('should show loading, an error with its code, and the empty list', async () => {
    fakeApi({ 'GET /api/v1/meetings': { error: 'Down', code: 5003, status: 503 } });
    const first = renderPage(<Meetings />, { path: '/meetings' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the meetings');
    expect(await screen.findByRole('alert', { name: 'The meetings could not be loaded' })).toHaveTextContent('5003');
    first.unmount();
    fakeApi({ 'GET /api/v1/meetings': { data: [], pagination: { total: 0, offset: 0, limit: 20 } } });
    renderPage(<Meetings />, { path: '/meetings' });
    expect(await screen.findByRole('heading', { name: 'No meetings yet' })).toBeInTheDocument();
  });

  it('should list meetings with token use, filter by status, and offer an observer no trigger', async () => {
    const api = fakeApi({
      'GET /api/v1/meetings': { data: [MEETING], pagination: { total: 1, offset: 0, limit: 20 } },
    });
    renderPage(<Meetings />, { me: OBSERVER, path: '/meetings' });
    const table = await screen.findByRole('table', { name: 'Meetings' });
    expect(within(table).getByRole('link', { name: 'kickoff' })).toHaveAttribute('href', '/meetings/m-1');
    expect(within(table).getByText('15 / 1,000')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Trigger a meeting' })).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() =>
      expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/meetings?offset=0&limit=20&status=failed'),
    );
  });

  it('should trigger the meetings of a configured event', async () => {
    const api = fakeApi({
      'GET /api/v1/meetings': { data: [], pagination: { total: 0, offset: 0, limit: 20 } },
      'GET /api/v1/settings/coordination': TYPES,
      'POST /api/v1/meetings/trigger': { data: [MEETING] },
    });
    renderPage(<Meetings />, { path: '/meetings' });
    await userEvent.click(await screen.findByRole('button', { name: 'Trigger a meeting' }));
    await userEvent.selectOptions(await screen.findByLabelText(/^Event/), 'sprint_start');
    await userEvent.type(screen.getByLabelText(/^Agenda/), 'Plan the launch');
    await userEvent.click(screen.getByRole('button', { name: 'Hold the meeting' }));
    const held = await screen.findByRole('status', { name: 'Held' });
    expect(within(held).getByRole('link', { name: 'kickoff' })).toHaveAttribute('href', '/meetings/m-1');
    expect(api.calls.find((c) => c.route === 'POST /api/v1/meetings/trigger')?.body).toEqual({
      event_name: 'sprint_start',
      context: { agenda: ['Plan the launch'] },
    });
  });

  it('should show the minutes with decisions, contributions and action items linked to their tasks', async () => {
    fakeApi({
      'GET /api/v1/meetings/m-1': { data: MEETING },
      'GET /api/v1/tasks': { data: [TASK], pagination: { total: 1, offset: 0, limit: 200 } },
    });
    renderPage(<MeetingDetail />, { path: '/meetings/m-1', route: '/meetings/:meetingId' });
    expect(await screen.findByRole('heading', { level: 1, name: 'kickoff' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Token use' })).toHaveTextContent('15 of the 1,000 tokens budgeted');
    expect(screen.getByRole('region', { name: 'Decisions' })).toHaveTextContent('Ship on Monday');
    expect(screen.getByRole('region', { name: 'Contributions' })).toHaveTextContent('Let us ship.');
    const link = await within(screen.getByRole('region', { name: 'Action items' })).findByRole('link', {
      name: 'Write the release notes',
    });
    expect(link).toHaveAttribute('href', '/tasks/t-9');
    expect(tokensUsed(MEETING as never)).toBe(15);
  });
});
