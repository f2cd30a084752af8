import type { CompanyPlan, TemplateSummary } from '@app/domain';
import type { AgentEntity } from '@app/persistence';

import type { SetupAgentSummaryDto, TemplateDetailDto, TemplateSummaryDto } from './dto/setup.dto';

/** An agent as the setup wizard lists it. */
export function toSetupAgentSummary(agent: AgentEntity): SetupAgentSummaryDto {
  return {
    name: agent.name,
    role: agent.role,
    department: agent.department,
    level: agent.level,
    model_provider: agent.modelProvider,
    model_id: agent.modelId,
    tier: agent.modelTier,
    personality_preset: agent.personalityPreset,
  };
}

/** A template as GET /setup/templates lists it. */
export function toTemplateSummaryDto(template: TemplateSummary): TemplateSummaryDto {
  return {
    name: template.name,
    display_name: template.displayName,
    description: template.description,
    source: template.source,
    tags: template.tags,
    skill_patterns: template.skillPatterns,
    variables: template.variables.map((v) => ({
      name: v.name,
      description: v.description,
      var_type: v.varType,
      default: v.default,
      required: v.required,
    })),
    agent_count: template.agentCount,
    department_count: template.departmentCount,
    autonomy_level: template.autonomyLevel,
    workflow: template.workflow,
  };
}

/** A template in full: its summary and the plan its default variables render to. */
export function toTemplateDetailDto(template: TemplateSummary, plan: CompanyPlan): TemplateDetailDto {
  return {
    ...toTemplateSummaryDto(template),
    budget_monthly: plan.budgetMonthly,
    departments: plan.departments.map((d) => ({
      name: d.name,
      budget_percent: d.budgetPercent,
      head_role: d.headRole,
    })),
    agents: plan.agents.map((a) => ({
      name: a.name,
      role: a.role,
      department: a.department,
      level: a.level,
      model_tier: a.modelTier,
      personality_preset: a.personalityPreset,
    })),
  };
}
