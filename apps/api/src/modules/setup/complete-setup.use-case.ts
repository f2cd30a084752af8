import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, ErrorCode, ValidationError } from '@app/domain';
import {
  type ActorContext,
  announce,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReinitialisationHooks,
} from '@app/platform';

import { CompanyFacade } from '../company';
import { ModelCatalog } from '../providers';
import type { SetupCompleteDto } from './dto/setup.dto';
import { WizardGate } from './wizard-gate';

/** Completes setup: check → validate → reinitialise → persist, under the wizard lock (and across replicas). */
@Injectable()
export class CompleteSetupUseCase {
  private readonly log: Logger;
  private readonly audit: Logger;

  constructor(
    private readonly gate: WizardGate,
    private readonly company: CompanyFacade,
    private readonly catalog: ModelCatalog,
    private readonly hooks: ReinitialisationHooks,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('setup');
    this.audit = logging.forName('security.audit');
  }

  async execute(actor: ActorContext): Promise<SetupCompleteDto> {
    return this.gate.whileOpen(async () => {
      if (!(await this.company.find())) {
        throw new ValidationError(
          'Setup cannot complete: no company exists yet (POST /api/v1/setup/company)',
          ErrorCode.ValidationError,
        );
      }
      if ((await this.catalog.count()) === 0) {
        throw new ValidationError(
          'Setup cannot complete: no model provider is registered (add one under /api/v1/providers)',
          ErrorCode.ValidationError,
        );
      }
      const ran = await this.hooks.runAll((step) => this.log.info({ step }, 'setup.reinitialise.step'));
      await this.gate.markComplete();
      this.audit.info({ actor: actor.username, steps: ran }, 'setup.wizard.completed');
      await announce(this.bus, this.log, {
        channel: Channel.Company,
        event_type: 'company.setup_completed',
        payload: { steps: ran },
      });
      return { setup_complete: true, reinitialised: ran };
    });
  }
}
