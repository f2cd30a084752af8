import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import type { Schemas } from '@app/client';

import { CEO, fakeApi, OBSERVER, renderPage } from '../../test/render';
import { departmentFixture, page } from '../agents/fixtures';
import Hiring, { parseSkills } from './Hiring';

const CANDIDATE = (id: string, name: string, cost: number): Schemas['CandidateCard'] => ({
  id,
  name,
  department: 'engineering',
  role: 'Backend Developer',
  level: 'mid',
  model_id: 'mock-small',
  model_provider: 'fake',
  personality_preset: 'pragmatic_builder',
  rationale: 'Matches the skills',
  skills: ['python'],
  template_source: null,
  estimated_monthly_cost: cost,
});

function requestFixture(overrides: Partial<Schemas['HiringRequest']> = {}): Schemas['HiringRequest'] {
  return {
    id: 'h-1',
    agent_id: null,
    approval_id: null,
    budget_limit_monthly: null,
    candidates: [CANDIDATE('c-1', 'Linus', 12.5), CANDIDATE('c-2', 'Margaret', 40)],
    created_at: '2026-11-28T10:00:00.000Z',
    decided_by: 'ceo',
    department: 'engineering',
    level: 'mid',
    reason: 'The backlog grows',
    requested_by: 'ceo',
    required_skills: ['python'],
    role: 'Backend Developer',
    selected_candidate_id: 'c-1',
    status: 'approved',
    template_name: null,
    ...overrides,
  };
}

const DEPARTMENTS = { data: [departmentFixture({ name: 'engineering' }), departmentFixture({ name: 'product' })] };

describe('Hiring', () => {
  it('should parse the skills a person types', () => {
    expect(parseSkills(' python, , api-design,python ')).toEqual(['python', 'api-design']);
  });

  it('should say when there is no request, and offer an observer no hiring', async () => {
    fakeApi({ 'GET /api/v1/hiring/requests': page([], 0, 20) });
    renderPage(<Hiring />, { me: OBSERVER });
    expect(await screen.findByText('No hiring requests')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hire an agent' })).not.toBeInTheDocument();
  });

  it('should show a failed list with its code', async () => {
    fakeApi({ 'GET /api/v1/hiring/requests': { error: 'Not allowed', code: 1980, status: 403 } });
    renderPage(<Hiring />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error code 1980');
  });

  it('should file a request, select another candidate and hire it', async () => {
    let current = requestFixture();
    const api = fakeApi({
      'GET /api/v1/company/departments': DEPARTMENTS,
      'GET /api/v1/hiring/requests': page([], 0, 20),
      'POST /api/v1/hiring/requests': { data: current, status: 201 },
      'GET /api/v1/hiring/requests/h-1': () => ({ data: current }),
      'POST /api/v1/hiring/requests/h-1/select': (_r, body) => {
        current = { ...current, selected_candidate_id: (body as { candidate_id: string }).candidate_id };
        return { data: current };
      },
      'POST /api/v1/hiring/requests/h-1/instantiate': () => {
        current = { ...current, status: 'instantiated', agent_id: 'a-9' };
        return { data: current };
      },
    });
    renderPage(<Hiring />, { me: CEO });
    await userEvent.click(await screen.findByRole('button', { name: 'Hire an agent' }));
    const form = screen.getByRole('region', { name: 'Hire an agent' });
    await waitFor(() => expect(within(form).getByLabelText(/Department/)).toHaveValue('engineering'));
    await userEvent.type(within(form).getByLabelText(/Role/), 'Backend Developer');
    await userEvent.type(within(form).getByLabelText('Required skills'), 'python, api-design');
    await userEvent.type(within(form).getByLabelText(/Reason/), 'The backlog grows');
    await userEvent.type(within(form).getByLabelText('Monthly budget limit'), '50');
    await userEvent.click(within(form).getByRole('button', { name: 'File the request' }));
    await waitFor(() => expect(api.calls.some((c) => c.route === 'POST /api/v1/hiring/requests')).toBe(true));
    expect(api.calls.find((c) => c.route === 'POST /api/v1/hiring/requests')?.body).toEqual({
      department: 'engineering',
      role: 'Backend Developer',
      level: 'mid',
      required_skills: ['python', 'api-design'],
      reason: 'The backlog grows',
      budget_limit_monthly: 50,
    });

    const detail = await screen.findByRole('region', { name: /Backend Developer/ });
    expect(within(detail).getByText('$40.00 a month')).toBeInTheDocument();
    await userEvent.click(within(detail).getByRole('radio', { name: /Margaret/ }));
    await waitFor(() => expect(within(detail).getByRole('radio', { name: /Margaret/ })).toBeChecked());
    await userEvent.click(within(detail).getByRole('button', { name: 'Hire the selected candidate' }));
    expect(await within(detail).findByRole('link', { name: 'Margaret' })).toHaveAttribute('href', '/agents/Margaret');
  });

  it('should compare every candidate’s cost with the request’s own limit and warn when the choice exceeds it', async () => {
    let current = requestFixture({ budget_limit_monthly: 20 });
    fakeApi({
      'GET /api/v1/hiring/requests': page([current], 0, 20),
      'GET /api/v1/hiring/requests/h-1': () => ({ data: current }),
      'POST /api/v1/hiring/requests/h-1/select': (_r, body) => {
        current = { ...current, selected_candidate_id: (body as { candidate_id: string }).candidate_id };
        return { data: current };
      },
    });
    renderPage(<Hiring />, { path: '/?request=h-1' });
    const detail = await screen.findByRole('region', { name: /Backend Developer/ });
    expect(await within(detail).findByText(/against this request’s limit of \$20\.00 a month/)).toBeInTheDocument();
    const card = (name: RegExp) =>
      within(detail).getByRole('radio', { name }).closest('.mantine-Paper-root') as HTMLElement;
    expect(within(card(/Linus/)).getByText('Within the limit')).toBeInTheDocument();
    expect(within(card(/Margaret/)).getByText('$20.00 over the limit')).toBeInTheDocument();
    expect(within(detail).queryByText('Over this request’s budget')).not.toBeInTheDocument();

    await userEvent.click(within(detail).getByRole('radio', { name: /Margaret/ }));
    await waitFor(() => expect(within(detail).getByRole('radio', { name: /Margaret/ })).toBeChecked());
    const warning = within(detail)
      .getByText('Over this request’s budget')
      .closest('[role="alert"], .mantine-Alert-root');
    expect(warning).toHaveTextContent('Margaret is estimated at $40.00 a month, more than the limit of $20.00 a month');
    expect(warning).toHaveTextContent('A candidate within the limit is listed above.');
  });

  it('should not compare costs when the request sets no limit', async () => {
    fakeApi({
      'GET /api/v1/hiring/requests': page([requestFixture()], 0, 20),
      'GET /api/v1/hiring/requests/h-1': { data: requestFixture({ selected_candidate_id: 'c-2' }) },
    });
    renderPage(<Hiring />, { path: '/?request=h-1' });
    const detail = await screen.findByRole('region', { name: /Backend Developer/ });
    expect(await within(detail).findByText(/this request sets no monthly limit/)).toBeInTheDocument();
    expect(within(detail).queryByText(/over the limit|Within the limit/)).not.toBeInTheDocument();
    expect(within(detail).queryByText('Over this request’s budget')).not.toBeInTheDocument();
  });

  it('should show that a pending request waits for an approval', async () => {
    fakeApi({
      'GET /api/v1/hiring/requests': page([requestFixture({ status: 'pending' })], 0, 20),
      'GET /api/v1/hiring/requests/h-1': { data: requestFixture({ status: 'pending', decided_by: null }) },
    });
    renderPage(<Hiring />, { path: '/?request=h-1' });
    const detail = await screen.findByRole('region', { name: /Backend Developer/ });
    expect(await within(detail).findByRole('link', { name: 'approvals queue' })).toHaveAttribute('href', '/approvals');
    expect(within(detail).queryByRole('button', { name: 'Hire the selected candidate' })).not.toBeInTheDocument();
  });

  it('should show the instantiate refusal with its code', async () => {
    fakeApi({
      'GET /api/v1/hiring/requests': page([requestFixture()], 0, 20),
      'GET /api/v1/hiring/requests/h-1': { data: requestFixture() },
      'POST /api/v1/hiring/requests/h-1/instantiate': { error: 'The name is taken', code: 4098, status: 409 },
    });
    renderPage(<Hiring />, { path: '/?request=h-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Hire the selected candidate' }));
    expect(await screen.findByText('Error code 4098')).toBeInTheDocument();
  });
});
