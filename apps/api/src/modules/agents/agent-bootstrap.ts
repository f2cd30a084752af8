import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { ErrorCode, findCatalogModel, type ModelTier, pickModelForTier, ValidationError } from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime, ReinitialisationHooks, ReinitialisationOrder } from '@app/platform';

import { ModelCatalog } from '../providers';
import { AgentsRepository } from './agents.repository';

/**
 * Agent bootstrap, one step of reinitialisation: every agent on the roster must end up with a
 * model a registered provider offers. Agents without one get the catalogue model matching their
 * tier; an agent whose model has disappeared stops the run with an error naming it.
 */
@Injectable()
export class AgentBootstrap implements OnModuleInit {
  private readonly log: Logger;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly catalog: ModelCatalog,
    private readonly hooks: ReinitialisationHooks,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.agents');
  }

  onModuleInit(): void {
    this.hooks.register({ name: 'agents.bootstrap', order: ReinitialisationOrder.Agents, run: () => this.run() });
  }

  async run(): Promise<void> {
    const models = await this.catalog.models();
    const roster = await this.agents.all();
    const problems: string[] = [];
    let assigned = 0;
    for (const agent of roster) {
      if (agent.modelProvider && agent.modelId) {
        if (!findCatalogModel(models, agent.modelProvider, agent.modelId)) {
          problems.push(`${agent.name}: model ${agent.modelProvider}/${agent.modelId} is not offered by any provider`);
        }
        continue;
      }
      const pick = pickModelForTier(models, agent.modelTier as ModelTier);
      if (!pick) {
        problems.push(`${agent.name}: no provider offers a model to assign`);
        continue;
      }
      await this.agents.update(agent.id, { modelProvider: pick.provider, modelId: pick.id });
      assigned += 1;
    }
    if (problems.length > 0) {
      throw new ValidationError(`Agent bootstrap failed: ${problems.join('; ')}`, ErrorCode.ValidationError);
    }
    this.log.info({ agents: roster.length, models_assigned: assigned }, 'hr.agents.bootstrapped');
  }
}
