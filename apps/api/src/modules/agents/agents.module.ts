import { Module } from '@nestjs/common';

import { ProvidersModule } from '../providers';
import { RunLedgerModule } from '../run-ledger';
import { ActivitiesController } from './activities.controller';
import { ActivitiesService } from './activities.service';
import { ActivitySources } from './activity-sources';
import { AgentBootstrap } from './agent-bootstrap';
import { AgentRoster } from './agent-roster.facade';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { PersonalitiesController } from './personalities.controller';
import { PersonalitiesRepository } from './personalities.repository';
import { PersonalitiesService } from './personalities.service';

/**
 * The roster: agents, their careers and performance, the activity feed, and personality presets.
 * The only writer of the agents table; other modules go through AgentRoster. The activity feed reads
 * the company's currency through CompanyProfileReader, which the company module binds.
 */
@Module({
  imports: [ProvidersModule, RunLedgerModule],
  controllers: [AgentsController, ActivitiesController, PersonalitiesController],
  providers: [
    ActivitiesService,
    ActivitySources,
    AgentBootstrap,
    AgentRoster,
    AgentsRepository,
    AgentsService,
    PersonalitiesRepository,
    PersonalitiesService,
  ],
  exports: [ActivitySources, AgentRoster, PersonalitiesService],
})
export class AgentsModule {}
