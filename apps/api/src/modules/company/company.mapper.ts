import type { CompanyEntity, DepartmentEntity } from '@app/persistence';

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

/** The company object: identity, configuration and its departments. */
export function toCompany(company: CompanyEntity, departments: DepartmentDto[], agentCount: number): CompanyDto {
  return {
    id: company.id,
    name: company.name,
    description: company.description,
    type: company.type,
    template_name: company.templateName,
    departments,
    agent_count: agentCount,
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
