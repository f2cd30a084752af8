import { Injectable } from '@nestjs/common';

import { AUTONOMY_PRESETS, type AutonomyLevel, ForbiddenError, HumanRole } from '@app/domain';
import type { ActorContext } from '@app/platform';

import { AutonomyControl, type AutonomyState } from './autonomy-control';
import type { AgentAutonomyDto, UpdateAgentAutonomyDto } from './dto/autonomy.dto';

/** The agent autonomy routes' use cases. */
@Injectable()
export class AgentAutonomyService {
  constructor(private readonly autonomy: AutonomyControl) {}

  async get(agentName: string): Promise<AgentAutonomyDto> {
    return toAgentAutonomy(await this.autonomy.stateOf(agentName));
  }

  /** @throws ForbiddenError (1001) when a manager sets an agent outside their department. */
  async set(actor: ActorContext, agentName: string, body: UpdateAgentAutonomyDto): Promise<AgentAutonomyDto> {
    const state = await this.autonomy.stateOf(agentName);
    if (actor.role === HumanRole.Manager && actor.department !== state.agent.department) {
      throw new ForbiddenError(`Managers may only set the autonomy of their own department's agents`);
    }
    const level = body.level as AutonomyLevel | null;
    return toAgentAutonomy(await this.autonomy.setByHuman(state.agent.id, level, actor.userId, body.reason ?? null));
  }
}

function toAgentAutonomy(state: AutonomyState): AgentAutonomyDto {
  const preset = AUTONOMY_PRESETS[state.level];
  const downgrade = state.downgrade;
  return {
    agent_id: state.agent.id,
    agent_name: state.agent.name,
    level: state.level,
    source: state.source,
    agent_level: state.agentLevel,
    department_level: state.departmentLevel,
    company_level: state.companyLevel,
    downgrade: downgrade
      ? {
          original_level: downgrade.originalLevel,
          current_level: downgrade.currentLevel,
          reason: downgrade.reason,
          detail: downgrade.detail,
          downgraded_at: downgrade.downgradedAt.toISOString(),
          requires_human_recovery: true,
        }
      : null,
    auto_approve: [...preset.autoApprove],
    human_approval: [...preset.humanApproval],
    security_agent: preset.securityAgent,
  };
}
