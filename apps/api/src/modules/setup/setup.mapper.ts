import type { AgentEntity } from '@app/persistence';

import type { SetupAgentSummaryDto } from './dto/setup.dto';

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
