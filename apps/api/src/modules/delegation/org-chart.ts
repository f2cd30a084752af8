import type { OrgAgent, OrgDepartment } from '@app/domain';
import type { AgentEntity, DepartmentEntity } from '@app/persistence';

/** An agent's authority block as stored in its settings (raw JSON, so every field is checked). */
export function toOrgAgent(agent: AgentEntity): OrgAgent {
  const authority = record(record(agent.settings).authority);
  return {
    id: agent.id,
    name: agent.name,
    role: agent.role,
    department: agent.department,
    reportsTo: typeof authority.reports_to === 'string' ? authority.reports_to : null,
    canDelegateTo: strings(authority.can_delegate_to),
  };
}

/** A department's head, teams and reporting lines (raw JSON columns; malformed entries are skipped). */
export function toOrgDepartment(department: DepartmentEntity): OrgDepartment {
  return {
    nameKey: department.nameKey,
    head: department.head,
    teams: department.teams
      .map(record)
      .flatMap((team) => (typeof team.lead === 'string' ? [{ lead: team.lead, members: strings(team.members) }] : [])),
    reportingLines: department.reportingLines
      .map(record)
      .flatMap((line) =>
        typeof line.subordinate === 'string' && typeof line.supervisor === 'string'
          ? [{ subordinate: line.subordinate, supervisor: line.supervisor }]
          : [],
      ),
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
