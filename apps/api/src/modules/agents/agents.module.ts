import { Module } from '@nestjs/common';

import { ProvidersModule } from '../providers/providers.module';
import { RunLedgerModule } from '../run-ledger';
import { ActivitiesController } from './activities.controller';
import { ActivitiesService } from './activities.service';
import { AgentBootstrap } from './agent-bootstrap';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { CompanySettingsReader } from './company-settings.reader';
import { PersonalitiesController } from './personalities.controller';
import { PersonalitiesRepository } from './personalities.repository';
import { PersonalitiesService } from './personalities.service';

/** The roster: agents, their careers and performance, the activity feed, and personality presets. */
@Module({
  imports: [ProvidersModule, RunLedgerModule],
  controllers: [AgentsController, ActivitiesController, PersonalitiesController],
  providers: [
    ActivitiesService,
    AgentBootstrap,
    AgentsRepository,
    AgentsService,
    CompanySettingsReader,
    PersonalitiesRepository,
    PersonalitiesService,
  ],
  exports: [ActivitiesService, AgentsRepository, AgentsService, PersonalitiesService],
})
export class AgentsModule {}
