import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  assertAutonomyAllowed,
  DEFAULT_DEPARTMENT,
  DEFAULT_PERSONALITY_PRESET,
  ErrorCode,
  ValidationError,
} from '@app/domain';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime, UnitOfWork } from '@app/platform';

import { AgentRoster, type NewAgent, PersonalitiesService } from '../agents';
import { CompanyFacade } from '../company';
import type { CreateSetupAgentDto, SetupAgentSummaryDto } from './dto/setup.dto';
import { toSetupAgentSummary } from './setup.mapper';
import { WizardGate } from './wizard-gate';

/** Adds one agent by hand, creating its department when missing: both in one transaction, under the wizard lock. */
@Injectable()
export class AddAgentUseCase {
  private readonly log: Logger;

  constructor(
    private readonly gate: WizardGate,
    private readonly company: CompanyFacade,
    private readonly roster: AgentRoster,
    private readonly personalities: PersonalitiesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('setup');
  }

  async execute(actor: ActorContext, dto: CreateSetupAgentDto): Promise<SetupAgentSummaryDto> {
    return this.gate.whileOpen(async () => {
      if (!(await this.company.find())) {
        throw new ValidationError('Create the company first (POST /api/v1/setup/company)', ErrorCode.ValidationError);
      }
      const hire = await this.hireOf(dto);
      // The department (when new) and the agent are written together: a refused hire leaves nothing.
      const { agent, createdDepartment } = await this.unitOfWork.run(async (tx) => {
        const created = await this.company.ensureDepartment(hire.department, tx);
        return {
          agent: await this.roster.hire(hire, actor.username, 'manually during setup', tx),
          createdDepartment: created,
        };
      });
      if (createdDepartment) {
        await announce(this.bus, this.log, {
          channel: Channel.Departments,
          event_type: 'department.created',
          payload: { name: hire.department },
        });
      }
      await this.roster.announceHired([agent]);
      return toSetupAgentSummary(agent);
    });
  }

  private async hireOf(dto: CreateSetupAgentDto): Promise<NewAgent> {
    const model = await this.gate.resolveModel(dto.model_provider, dto.model_id);
    const preset = await this.personalities.resolve(dto.personality_preset ?? DEFAULT_PERSONALITY_PRESET);
    const hire: NewAgent = {
      name: dto.name.trim(),
      role: dto.role.trim(),
      department: (dto.department ?? DEFAULT_DEPARTMENT).trim(),
      level: dto.level ?? 'mid',
      personalityPreset: preset.name,
      personality: preset.personality,
      modelProvider: model.provider,
      modelId: model.id,
      modelTier: 'medium',
      autonomyLevel: dto.autonomy_level ?? null,
      budgetLimitMonthly: dto.budget_limit_monthly ?? null,
    };
    if (!hire.name || !hire.role || !hire.department) {
      throw new ValidationError('name, role and department must not be blank', ErrorCode.RequestValidationError);
    }
    assertAutonomyAllowed(hire.level, hire.autonomyLevel);
    return hire;
  }
}
