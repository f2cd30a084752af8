import type { AgentOnboardingEntity, HiringCandidateEntry, HiringRequestEntity } from '@app/persistence';

import type { CandidateCardDto, HiringRequestDto, OnboardingDto } from './dto/hiring.dto';

export function toCandidateCard(c: HiringCandidateEntry): CandidateCardDto {
  return {
    id: c.id,
    name: c.name,
    role: c.role,
    department: c.department,
    level: c.level,
    skills: [...c.skills],
    rationale: c.rationale,
    estimated_monthly_cost: c.estimatedMonthlyCost,
    template_source: c.templateSource,
    personality_preset: c.personalityPreset,
    model_provider: c.modelProvider,
    model_id: c.modelId,
  };
}

export function toHiringRequest(row: HiringRequestEntity): HiringRequestDto {
  return {
    id: row.id,
    requested_by: row.requestedBy,
    department: row.department,
    role: row.role,
    level: row.level,
    required_skills: [...row.requiredSkills],
    reason: row.reason,
    budget_limit_monthly: row.budgetLimitMonthly,
    template_name: row.templateName,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    candidates: row.candidates.map(toCandidateCard),
    selected_candidate_id: row.selectedCandidateId,
    approval_id: row.approvalId,
    decided_by: row.decidedBy,
    agent_id: row.agentId,
  };
}

export function toOnboarding(row: AgentOnboardingEntity): OnboardingDto {
  return {
    agent_id: row.agentId,
    agent_name: row.agentName,
    hiring_request_id: row.hiringRequestId,
    steps: row.steps.map((s) => ({
      name: s.name,
      state: s.state,
      task_id: s.taskId,
      attempts: s.attempts,
      reason: s.reason,
      summary: s.summary,
      completed_at: s.completedAt,
    })),
    started_at: row.startedAt.toISOString(),
    completed_at: row.completedAt ? row.completedAt.toISOString() : null,
  };
}
