import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { fakeApi, renderPage } from '../../test/render';
import Messages from './Messages';

const CHANNELS = {
  data: [
    { name: '#all-hands', type: 'topic', subscribers: [] },
    { name: '#engineering', type: 'topic', subscribers: [] },
  ],
};
const MESSAGE = {
  id: 'm-1',
  channel: '#engineering',
  from: 'Ada',
  to: '#engineering',
  content: 'The build is green.',
  type: 'status_report',
  priority: 'high',
  timestamp: new Date().toISOString(),
  attachments: [],
  metadata: { task_id: 't-123456789', project_id: null, cost_usd: null, tokens_used: null, extra: [] },
};

describe('Messages', () => {
  it('should show loading, an error with its code, and an empty channel', async () => {
    fakeApi({
      'GET /api/v1/messages/channels': CHANNELS,
      'GET /api/v1/messages': { error: 'Down', code: 5003, status: 503 },
    });
    const first = renderPage(<Messages />, { path: '/messages' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the messages');
    expect(await screen.findByRole('alert', { name: 'The messages could not be loaded' })).toHaveTextContent('5003');
    first.unmount();
    fakeApi({
      'GET /api/v1/messages/channels': CHANNELS,
      'GET /api/v1/messages': { data: [], pagination: { total: 0, offset: 0, limit: 30 } },
    });
    renderPage(<Messages />, { path: '/messages' });
    expect(await screen.findByRole('heading', { name: 'No messages here yet' })).toBeInTheDocument();
  });

  it('should list the channels and show one channel’s feed', async () => {
    const api = fakeApi({
      'GET /api/v1/messages/channels': CHANNELS,
      'GET /api/v1/messages': { data: [MESSAGE], pagination: { total: 1, offset: 0, limit: 30 } },
    });
    renderPage(<Messages />, { path: '/messages' });
    const channels = await screen.findByRole('navigation', { name: 'Channels' });
    await userEvent.click(await within(channels).findByRole('button', { name: /#engineering/ }));
    await waitFor(() =>
      expect(api.calls.map((c) => c.route)).toContain('GET /api/v1/messages?offset=0&limit=30&channel=%23engineering'),
    );
    const feed = await screen.findByRole('list', { name: 'Messages' });
    expect(feed).toHaveTextContent('The build is green.');
    expect(within(feed).getByRole('link', { name: 'Task t-123456' })).toHaveAttribute('href', '/tasks/t-123456789');
  });
});
