import { Injectable } from '@nestjs/common';
import { IsNull, type Repository } from 'typeorm';

import { AgentOnboardingEntity } from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

/** The columns a compare-and-set write of a checklist may change. */
export type OnboardingChanges = Partial<Pick<AgentOnboardingEntity, 'steps' | 'completedAt' | 'agentName'>>;

/** The only TypeORM user for onboarding checklists; every change is a compare-and-set on the version. */
@Injectable()
export class OnboardingRepository {
  constructor(private readonly database: DatabaseService) {}

  private rows(): Repository<AgentOnboardingEntity> {
    return this.database.dataSource.getRepository(AgentOnboardingEntity);
  }

  findByAgent(agentId: string): Promise<AgentOnboardingEntity | null> {
    return this.rows().findOneBy({ agentId });
  }

  /** Checklists not yet complete, oldest first (the completed-at index). */
  unfinished(limit: number): Promise<AgentOnboardingEntity[]> {
    return this.rows().find({ where: { completedAt: IsNull() }, order: { startedAt: 'ASC' }, take: limit });
  }

  async insert(row: AgentOnboardingEntity, tx?: Transaction): Promise<void> {
    await this.database.manager(tx).getRepository(AgentOnboardingEntity).insert(row);
  }

  /** Applies the changes if the checklist is still at `base.version`; the new row, or null. */
  async update(base: AgentOnboardingEntity, changes: OnboardingChanges): Promise<AgentOnboardingEntity | null> {
    const updatedAt = new Date();
    const result = await this.rows().update(
      { agentId: base.agentId, version: base.version },
      { ...changes, version: base.version + 1, updatedAt },
    );
    if (!result.affected) {
      return null;
    }
    return { ...base, ...changes, version: base.version + 1, updatedAt };
  }
}
