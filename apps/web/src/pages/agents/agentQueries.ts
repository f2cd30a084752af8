import { useQuery } from '@tanstack/react-query';

import { unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';
import type { Agent } from './agentText';

/** The most the API gives in one page. */
const PAGE_MAX = 200;

/** The whole roster (page by page), for the org chart. */
export async function fetchAllAgents(): Promise<Agent[]> {
  const agents: Agent[] = [];
  for (let offset = 0; ; offset += PAGE_MAX) {
    const page = await unwrapPage(api.GET('/api/v1/agents', { params: { query: { offset, limit: PAGE_MAX } } }));
    agents.push(...page.items);
    if (page.items.length === 0 || agents.length >= page.total) {
      return agents;
    }
  }
}

export function useAllAgents() {
  return useQuery({ queryKey: ['agents', 'all'], queryFn: fetchAllAgents });
}

export function useCompanyDepartments() {
  return useQuery({
    queryKey: ['departments', 'company'],
    queryFn: () => unwrap(api.GET('/api/v1/company/departments')),
  });
}

export function useBudgetConfig() {
  return useQuery({ queryKey: ['budget', 'config'], queryFn: () => unwrap(api.GET('/api/v1/budget/config')) });
}
