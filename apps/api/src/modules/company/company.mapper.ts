import { type CompanyEntity, type DepartmentEntity, rawJson, rawNumber } from '@app/persistence';

import type { AgentConfigDto } from '../agents';
import type { CompanyDto, DepartmentDto } from './dto/company.dto';

/** A department row as the API shows it, with its agent count. */
export function toDepartment(row: DepartmentEntity, agentCount: number): DepartmentDto {
  return {
    name: row.name,
    head: row.head,
    budget_percent: row.budgetPercent,
    teams: row.teams,
    reporting_lines: row.reportingLines,
    autonomy_level: row.autonomyLevel,
    policies: row.policies,
    ceremony_policy: row.ceremonyPolicy,
    agent_count: agentCount,
  };
}

/** The columns of `departments` a list page reads: what the response shows, and the name key. */
export const DEPARTMENT_ROW_COLUMNS = [
  'name',
  'name_key',
  'head',
  'budget_percent',
  'teams',
  'reporting_lines',
  'autonomy_level',
  'policies',
  'ceremony_policy',
] as const;

/** A raw `departments` row of {@link DEPARTMENT_ROW_COLUMNS}, as either dialect answers it. */
export type DepartmentRow = Record<(typeof DEPARTMENT_ROW_COLUMNS)[number], unknown>;

/** A raw list row as the API shows it: the same as {@link toDepartment} of the entity. */
export function toDepartmentFromRow(row: DepartmentRow, agentCount: number): DepartmentDto {
  return {
    name: row.name as string,
    head: row.head as string | null,
    budget_percent: rawNumber(row.budget_percent),
    teams: rawJson(row.teams),
    reporting_lines: rawJson(row.reporting_lines),
    autonomy_level: row.autonomy_level as string | null,
    policies: rawJson(row.policies),
    ceremony_policy: rawJson(row.ceremony_policy),
    agent_count: agentCount,
  };
}

/** The company object: identity, configuration, its departments and its roster. */
export function toCompany(company: CompanyEntity, departments: DepartmentDto[], agents: AgentConfigDto[]): CompanyDto {
  return {
    id: company.id,
    name: company.name,
    company_name: company.name,
    description: company.description,
    type: company.type,
    template_name: company.templateName,
    departments,
    agents,
    agent_count: agents.length,
    config: {
      autonomy: { level: company.autonomyLevel },
      budget_monthly: company.budgetMonthly,
      currency: company.currency,
      communication_pattern: company.communicationPattern,
      workflow: company.workflow,
      ceremony_strategy: company.ceremonyStrategy,
    },
    created_at: company.createdAt.toISOString(),
    updated_at: company.updatedAt.toISOString(),
  };
}
