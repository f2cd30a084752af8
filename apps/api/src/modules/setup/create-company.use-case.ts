import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  type CompanyPlan,
  ConflictError,
  DEFAULT_CURRENCY,
  ErrorCode,
  nameKey,
  NotFoundError,
  pickModelForTier,
  ValidationError,
} from '@app/domain';
import { COMPANY_SINGLETON_ID, type CompanyEntity } from '@app/persistence';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime, UnitOfWork } from '@app/platform';

import { AgentRoster, type NewAgent, PersonalitiesService } from '../agents';
import { CompanyFacade } from '../company';
import { ModelCatalog } from '../providers';
import type { CreateCompanyDto, CreateCompanyResponseDto } from './dto/setup.dto';
import { NameGenerator } from './names/name-generator';
import { toSetupAgentSummary } from './setup.mapper';
import { SetupService } from './setup.service';
import { TemplateCatalog } from './templates/template-catalog';
import { WizardGate } from './wizard-gate';

/**
 * Creates the company, from a template (its departments and agents replace any earlier ones) or
 * blank (the roster is kept), in one transaction under the wizard lock; then announces what changed.
 */
@Injectable()
export class CreateCompanyUseCase {
  private readonly log: Logger;
  private readonly audit: Logger;

  constructor(
    private readonly gate: WizardGate,
    private readonly setup: SetupService,
    private readonly company: CompanyFacade,
    private readonly roster: AgentRoster,
    private readonly personalities: PersonalitiesService,
    private readonly catalog: ModelCatalog,
    private readonly templates: TemplateCatalog,
    private readonly names: NameGenerator,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('setup');
    this.audit = logging.forName('security.audit');
  }

  async execute(actor: ActorContext, dto: CreateCompanyDto): Promise<CreateCompanyResponseDto> {
    const companyName = dto.company_name.trim();
    const template = this.checkRequest(dto, companyName);
    const plan = template ? this.templates.render(template, dto.variables ?? {}) : TemplateCatalog.blankPlan();

    return this.gate.whileOpen(async () => {
      if (!template && (await this.roster.count()) > 0) {
        throw new ConflictError(
          'A blank company cannot replace a roster that already has agents; apply a template or keep the company',
          ErrorCode.ResourceConflict,
        );
      }
      const hires = await this.planHires(plan);
      const existing = await this.company.find();
      const company = companyRow(companyName, dto.description ?? '', plan, existing);
      const departments = plan.departments.map((d) => ({
        name: d.name,
        head: d.headRole,
        budgetPercent: d.budgetPercent,
      }));
      const prepared = this.roster.prepareHires(hires, 0, actor.username, `from template ${template}`);
      await this.unitOfWork.run(async (tx) => {
        await this.company.save(company, tx);
        if (template) {
          await this.roster.replaceAll(prepared, tx);
          await this.company.replaceDepartments(departments, tx);
        }
      });
      this.audit.info(
        { actor: actor.username, company: companyName, template, agents: prepared.agents.length },
        'setup.company.created',
      );
      await this.announce(existing !== null, companyName, template, departments, prepared.agents);
      const roster = template ? prepared.agents : await this.roster.all();
      return {
        company_name: companyName,
        description: company.description,
        template_applied: template,
        department_count: template ? departments.length : await this.company.departmentCount(),
        agent_count: roster.length,
        agents: roster.map(toSetupAgentSummary),
      };
    });
  }

  /** The request's own rules, checked before the lock; returns the template key (null: blank). */
  private checkRequest(dto: CreateCompanyDto, companyName: string): string | null {
    if (companyName.length === 0) {
      throw new ValidationError('company_name: must not be blank', ErrorCode.RequestValidationError);
    }
    const template = dto.template_name?.trim().toLowerCase() ?? null;
    if (template !== null && !this.templates.has(template)) {
      throw new NotFoundError(
        `Template "${dto.template_name}" not found; GET /api/v1/setup/templates lists them`,
        ErrorCode.TemplateNotFound,
      );
    }
    if (template === null && dto.variables !== undefined) {
      throw new ValidationError('variables: only apply with a template_name', ErrorCode.RequestValidationError);
    }
    return template;
  }

  /** Template roster → hires: names from the chosen locales, models matched to the providers. */
  private async planHires(plan: CompanyPlan): Promise<NewAgent[]> {
    const [models, locales] = await Promise.all([this.catalog.models(), this.setup.nameLocales()]);
    const taken = new Set<string>();
    const hires: NewAgent[] = [];
    for (const planned of plan.agents) {
      const preset = await this.personalities.resolve(planned.personalityPreset);
      const name = planned.name ?? this.names.randomName(locales, { exclude: taken });
      taken.add(nameKey(name));
      const model = pickModelForTier(models, planned.modelTier);
      hires.push({
        name,
        role: planned.role,
        department: planned.department,
        level: planned.level,
        personalityPreset: preset.name,
        personality: preset.personality,
        modelProvider: model?.provider ?? null,
        modelId: model?.id ?? null,
        modelTier: planned.modelTier,
        autonomyLevel: null,
        budgetLimitMonthly: null,
      });
    }
    return hires;
  }

  private async announce(
    existed: boolean,
    companyName: string,
    template: string | null,
    departments: ReadonlyArray<{ name: string }>,
    hired: Parameters<AgentRoster['announceHired']>[0],
  ): Promise<void> {
    await announce(this.bus, this.log, {
      channel: Channel.Company,
      event_type: existed ? 'company.updated' : 'company.created',
      payload: { name: companyName, template_name: template },
    });
    for (const d of departments) {
      await announce(this.bus, this.log, {
        channel: Channel.Departments,
        event_type: 'department.created',
        payload: { name: d.name },
      });
    }
    await this.roster.announceHired(hired);
  }
}

/** The company row for this plan; an existing company keeps its currency, creation time and version line. */
function companyRow(
  name: string,
  description: string,
  plan: CompanyPlan,
  existing: CompanyEntity | null,
): CompanyEntity {
  const now = new Date();
  return {
    id: COMPANY_SINGLETON_ID,
    name,
    description,
    type: plan.companyType,
    templateName: plan.templateName,
    autonomyLevel: plan.autonomyLevel,
    budgetMonthly: plan.budgetMonthly,
    currency: existing?.currency ?? DEFAULT_CURRENCY,
    communicationPattern: plan.communicationPattern,
    workflow: plan.workflow,
    ceremonyStrategy: plan.ceremonyStrategy,
    version: (existing?.version ?? 0) + 1,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}
