import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { ApprovalsModule } from '../approvals';
import { AuditModule } from '../audit';
import { ProvidersModule } from '../providers';
import { SettingsModule } from '../settings';
import { LevelChangesRepository } from './level-changes.repository';
import { LevelReview } from './level-review.service';
import { LevelReviewSchedule } from './level-review.schedule';
import { PromotionsController } from './promotions.controller';
import { PROMOTION_SETTINGS } from './promotions.settings';

/**
 * Promotion and demotion (engine.md §13): the evaluation on demand and on a schedule, moves filed
 * as `org:promote` approval items and applied on a person's approval. The agent's level, model and
 * career event are written through AgentRoster; the only writer of `level_changes`.
 */
@Module({
  imports: [AgentsModule, ApprovalsModule, AuditModule, ProvidersModule, SettingsModule.forFeature(PROMOTION_SETTINGS)],
  controllers: [PromotionsController],
  providers: [LevelChangesRepository, LevelReview, LevelReviewSchedule],
})
export class PromotionsModule {}
