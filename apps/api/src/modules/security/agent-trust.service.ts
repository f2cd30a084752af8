import { Injectable } from '@nestjs/common';

import { ErrorCode, NotFoundError } from '@app/domain';

import { AgentRoster } from '../agents';
import { toolPermissionsOf } from './agent-tool-access';
import type { AgentTrustDto } from './dto/trust.dto';
import { SecurityRepository } from './security.repository';
import { TrustControl } from './trust-control';

const CHANGES_SHOWN = 50;

/** The agent trust route's use case. */
@Injectable()
export class AgentTrustService {
  constructor(
    private readonly agents: AgentRoster,
    private readonly trust: TrustControl,
    private readonly repository: SecurityRepository,
  ) {}

  /** @throws NotFoundError (3013) for an unknown agent. */
  async get(agentRef: string): Promise<AgentTrustDto> {
    const agent = await this.agents.findByRef(agentRef);
    if (!agent) {
      throw new NotFoundError(`Agent "${agentRef}" not found`, ErrorCode.AgentNotFound);
    }
    const stored = await this.repository.findTrust(agent.id);
    const state = stored ?? (await this.trust.stateOf(agent));
    const changes = await this.repository.recordsOfKind(agent.id, 'trust_change', CHANGES_SHOWN);
    return {
      agent_id: agent.id,
      agent_name: agent.name,
      strategy: this.trust.strategy(),
      access_level: toolPermissionsOf(agent).accessLevel,
      trust_score: state.score,
      pending_level: state.pendingLevel,
      pending_approval_id: state.pendingApprovalId,
      last_changed_at: state.lastChangedAt?.toISOString() ?? null,
      last_verified_at: state.lastVerifiedAt.toISOString(),
      evaluated_at: stored ? stored.evaluatedAt.toISOString() : null,
      changes: changes.map((row) => ({
        from_level: row.finding ?? '',
        to_level: row.verdict,
        outcome: row.enforced,
        reason: row.reason,
        actor: row.actor,
        timestamp: row.createdAt.toISOString(),
      })),
    };
  }
}
