import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { AuditModule } from '../audit';
import { BudgetModule } from '../budget';
import { CompanyModule } from '../company';
import { ProvidersModule } from '../providers';
import { AgentEditPlanner } from './agent-edit-planner';
import { AgentEditsController } from './agent-edits.controller';
import { EditAgentUseCase } from './edit-agent.use-case';

/**
 * Editing agents after setup (PATCH /agents/{agent_name}). Its own module because the edit checks
 * what the company, the providers and the budget say, and those modules read the roster: the agents
 * module, still the only writer of `agents` and its career log, cannot import them.
 */
@Module({
  imports: [AgentsModule, AuditModule, BudgetModule, CompanyModule, ProvidersModule],
  controllers: [AgentEditsController],
  providers: [AgentEditPlanner, EditAgentUseCase],
})
export class AgentEditsModule {}
