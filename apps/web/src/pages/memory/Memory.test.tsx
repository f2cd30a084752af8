import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Schemas } from '@app/client';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import { departmentFixture, page } from '../agents/fixtures';
import Memory from './Memory';

const WIRED: Schemas['MemoryStatus'] = {
  backend: 'embedded',
  code: null,
  embedder_dims: 384,
  embedder_model: 'mock-embed',
  embedder_provider: 'fake',
  entries: 12,
  indexed: 12,
  org_facts: 1,
  reason: null,
  reembedding: { done: 0, retrieval_embedder: 'fake/mock-embed/384', state: 'idle', target_embedder: null, total: 0 },
  wired: true,
};
const FACT: Schemas['OrgFact'] = {
  id: 'f-1',
  author: 'ceo',
  category: 'convention',
  content: 'Every change ships with its tests',
  created_at: '2026-11-28T10:00:00.000Z',
  department: null,
};
const DEPARTMENTS = { data: [departmentFixture({ name: 'engineering' })] };

describe('Memory', () => {
  it('should say why memory is not wired, and offer an observer no edits', async () => {
    fakeApi({
      'GET /api/v1/memory/status': {
        data: { ...WIRED, wired: false, reason: 'No embedder is configured', code: 8040, embedder_model: null },
      },
      'GET /api/v1/memory/org': page([], 0, 20),
    });
    renderPage(<Memory />, { me: OBSERVER });
    const status = await screen.findByRole('status', { name: 'Memory status' });
    expect(status).toHaveTextContent('No embedder is configured');
    expect(status).toHaveTextContent('Code 8040');
    expect(await screen.findByText('No organization facts')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add fact' })).not.toBeInTheDocument();
  });

  it('should show a re-embedding under way and the embedder retrieval keeps meanwhile', async () => {
    fakeApi({
      'GET /api/v1/memory/status': {
        data: {
          ...WIRED,
          reembedding: {
            state: 'running',
            done: 64,
            total: 256,
            retrieval_embedder: 'fake/mock-embed/384',
            target_embedder: 'fake/mock-embed-large/768',
          },
        },
      },
      'GET /api/v1/memory/org': page([], 0, 20),
    });
    renderPage(<Memory />);
    const bar = await screen.findByRole('progressbar', {
      name: 'Embedding the stored memories again with fake/mock-embed-large/768: 64 of 256',
    });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText(/retrieval uses the vectors of fake\/mock-embed\/384/)).toBeInTheDocument();
  });

  it('should show no progress when no re-embedding runs', async () => {
    fakeApi({
      'GET /api/v1/memory/status': { data: WIRED },
      'GET /api/v1/memory/org': page([], 0, 20),
    });
    renderPage(<Memory />);
    await screen.findByRole('status', { name: 'Memory status' });
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('should show a failed status with its code', async () => {
    fakeApi({
      'GET /api/v1/memory/status': { error: 'Database down', code: 5030, status: 503 },
      'GET /api/v1/memory/org': page([], 0, 20),
    });
    renderPage(<Memory />);
    expect(await screen.findByText('Error code 5030')).toBeInTheDocument();
  });

  it('should list, add and delete facts', async () => {
    let facts: Schemas['OrgFact'][] = [FACT];
    const api = fakeApi({
      'GET /api/v1/memory/status': { data: WIRED },
      'GET /api/v1/company/departments': DEPARTMENTS,
      'GET /api/v1/memory/org': () => page(facts, 0, 20),
      'POST /api/v1/memory/org': (_r, body) => {
        const fact = { ...FACT, id: 'f-2', ...(body as object) };
        facts = [fact, ...facts];
        return { data: fact, status: 201 };
      },
      'DELETE /api/v1/memory/org/f-1': () => {
        facts = facts.filter((f) => f.id !== 'f-1');
        return { data: null };
      },
    });
    renderPage(<Memory />, { me: CEO });
    const wired = await screen.findByRole('status', { name: 'Memory status' });
    expect(wired).toHaveTextContent('Wired: the embedded store');
    expect(wired).toHaveTextContent('fake / mock-embed');
    const table = await screen.findByRole('table', { name: 'Organization facts' });
    expect(table).toHaveTextContent('Every change ships with its tests');

    const form = screen.getByRole('form', { name: 'Add a fact' });
    await userEvent.selectOptions(within(form).getByLabelText('Category'), 'procedure');
    await userEvent.selectOptions(await within(form).findByLabelText('Applies to'), 'engineering');
    await userEvent.type(within(form).getByLabelText(/Fact/), 'Deploys happen on Tuesdays');
    await userEvent.click(within(form).getByRole('button', { name: 'Add fact' }));
    await waitFor(() => expect(table).toHaveTextContent('Deploys happen on Tuesdays'));
    expect(api.calls.find((c) => c.route === 'POST /api/v1/memory/org')?.body).toEqual({
      category: 'procedure',
      content: 'Deploys happen on Tuesdays',
      department: 'engineering',
    });

    await userEvent.click(screen.getByRole('button', { name: /Delete the fact “Every change/ }));
    await waitFor(() => expect(table).not.toHaveTextContent('Every change ships with its tests'));
  });
});
