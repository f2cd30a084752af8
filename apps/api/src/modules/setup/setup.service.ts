import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';

import {
  assertAutonomyAllowed,
  Channel,
  type CompanyPlan,
  ConflictError,
  DEFAULT_DEPARTMENT,
  DEFAULT_PERSONALITY_PRESET,
  ErrorCode,
  findCatalogModel,
  HumanRole,
  nameKey,
  NotFoundError,
  PASSWORD_MIN_LENGTH,
  pickModelForTier,
  ValidationError,
} from '@app/domain';
import { COMPANY_SINGLETON_ID, type AgentEntity, type CompanyEntity, type DepartmentEntity } from '@app/persistence';
import {
  type ActorContext,
  announce,
  DatabaseService,
  DistributedLock,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReinitialisationHooks,
} from '@app/platform';

import { toAgentConfig } from '../agents/agents.mapper';
import { AgentsRepository } from '../agents/agents.repository';
import { AgentsService, type NewAgent } from '../agents/agents.service';
import { PersonalitiesService } from '../agents/personalities.service';
import { CompanyRepository } from '../company/company.repository';
import { ModelCatalog } from '../providers/model-catalog';
import type {
  CreateCompanyDto,
  CreateCompanyResponseDto,
  CreateSetupAgentDto,
  SetupAgentListDto,
  SetupAgentSummaryDto,
  SetupCompleteDto,
  SetupStatusDto,
} from './dto/setup.dto';
import { NameGenerator } from './names/name-generator';
import { DEFAULT_NAME_LOCALES, normalizeNameLocales } from './names/name-locales';
import { NAME_LOCALES, SETUP_COMPLETE, SetupRepository } from './setup.repository';
import { TemplateCatalog } from './templates/template-catalog';

/** Every wizard write runs under this lock, so a completion never races a half-applied change. */
const SETUP_LOCK = 'setup.wizard';

/**
 * The first-run wizard: create the company (from a template or blank), adjust agents by index,
 * choose name locales, then complete: check, validate, reinitialise, persist — under one lock.
 */
@Injectable()
export class SetupService {
  private readonly log: Logger;
  private readonly audit: Logger;

  constructor(
    private readonly setup: SetupRepository,
    private readonly company: CompanyRepository,
    private readonly agentsRepo: AgentsRepository,
    private readonly agents: AgentsService,
    private readonly personalities: PersonalitiesService,
    private readonly catalog: ModelCatalog,
    private readonly templates: TemplateCatalog,
    private readonly names: NameGenerator,
    private readonly hooks: ReinitialisationHooks,
    private readonly lock: DistributedLock,
    private readonly database: DatabaseService,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('setup');
    this.audit = logging.forName('security.audit');
  }

  async status(): Promise<SetupStatusDto> {
    const [ceos, complete, company, agentCount, providerCount, locales] = await Promise.all([
      this.setup.countUsersWithRole(HumanRole.Ceo),
      this.isComplete(),
      this.company.findCompany(),
      this.agentsRepo.count(),
      this.catalog.count(),
      this.setup.read(NAME_LOCALES),
    ]);
    return {
      needs_admin: ceos === 0,
      needs_setup: !complete,
      has_company: company !== null,
      has_agents: agentCount > 0,
      has_providers: providerCount > 0,
      has_name_locales: locales !== null,
      min_password_length: PASSWORD_MIN_LENGTH,
    };
  }

  async createCompany(actor: ActorContext, dto: CreateCompanyDto): Promise<CreateCompanyResponseDto> {
    const companyName = dto.company_name.trim();
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
    const plan = template ? this.templates.render(template, dto.variables ?? {}) : TemplateCatalog.blankPlan();

    return this.lock.runExclusive(SETUP_LOCK, async () => {
      await this.assertNotComplete();
      if (!template && (await this.agentsRepo.count()) > 0) {
        throw new ConflictError(
          'A blank company cannot replace a roster that already has agents; apply a template or keep the company',
          ErrorCode.ResourceConflict,
        );
      }
      const hires = await this.planHires(plan);
      const now = new Date();
      const existing = await this.company.findCompany();
      const company: CompanyEntity = {
        id: COMPANY_SINGLETON_ID,
        name: companyName,
        description: dto.description ?? '',
        type: plan.companyType,
        templateName: plan.templateName,
        autonomyLevel: plan.autonomyLevel,
        budgetMonthly: plan.budgetMonthly,
        currency: existing?.currency ?? 'EUR',
        communicationPattern: plan.communicationPattern,
        workflow: plan.workflow,
        ceremonyStrategy: plan.ceremonyStrategy,
        version: (existing?.version ?? 0) + 1,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      const departments = plan.departments.map((d, position) =>
        newDepartment(d.name, position, now, { head: d.headRole, budgetPercent: d.budgetPercent }),
      );
      const { agents, events } = this.agents.prepareHires(hires, 0, actor.username, `from template ${template}`);
      await this.database.transaction(async (manager) => {
        await this.company.saveCompany(company, manager);
        if (template) {
          await this.setup.clearRoster(manager);
          await this.company.deleteAllDepartments(manager);
          await this.company.insertDepartments(departments, manager);
          for (const agent of agents) {
            await this.agentsRepo.insert(agent, manager);
          }
          await this.agentsRepo.insertEvents(events, manager);
        }
      });
      this.audit.info(
        { actor: actor.username, company: companyName, template, agents: agents.length },
        'setup.company.created',
      );
      await announce(this.bus, this.log, {
        channel: Channel.Company,
        event_type: existing ? 'company.updated' : 'company.created',
        payload: { name: companyName, template_name: template },
      });
      for (const d of departments) {
        await announce(this.bus, this.log, {
          channel: Channel.Departments,
          event_type: 'department.created',
          payload: { name: d.name },
        });
      }
      await this.agents.announceHired(agents);
      const roster = template ? agents : await this.agentsRepo.all();
      return {
        company_name: companyName,
        description: company.description,
        template_applied: template,
        department_count: template ? departments.length : (await this.company.allDepartments()).length,
        agent_count: roster.length,
        agents: roster.map(toSummary),
      };
    });
  }

  async addAgent(actor: ActorContext, dto: CreateSetupAgentDto): Promise<SetupAgentSummaryDto> {
    return this.lock.runExclusive(SETUP_LOCK, async () => {
      await this.assertNotComplete();
      if (!(await this.company.findCompany())) {
        throw new ValidationError('Create the company first (POST /api/v1/setup/company)', ErrorCode.ValidationError);
      }
      const model = await this.resolveModel(dto.model_provider, dto.model_id);
      const preset = await this.personalities.resolve(dto.personality_preset ?? DEFAULT_PERSONALITY_PRESET);
      const departmentName = (dto.department ?? DEFAULT_DEPARTMENT).trim();
      const hire: NewAgent = {
        name: dto.name.trim(),
        role: dto.role.trim(),
        department: departmentName,
        level: dto.level ?? 'mid',
        personalityPreset: preset.name,
        personality: preset.personality,
        modelProvider: model.provider,
        modelId: model.id,
        modelTier: 'medium',
        autonomyLevel: dto.autonomy_level ?? null,
        budgetLimitMonthly: dto.budget_limit_monthly ?? null,
      };
      if (!hire.name || !hire.role || !departmentName) {
        throw new ValidationError('name, role and department must not be blank', ErrorCode.RequestValidationError);
      }
      assertAutonomyAllowed(hire.level, hire.autonomyLevel);
      // The department (when new) and the agent are written together: a refused hire leaves nothing.
      const { agent, createdDepartment } = await this.database.transaction(async (manager) => {
        const created = await this.ensureDepartment(departmentName, manager);
        return {
          agent: await this.agents.hire(hire, actor.username, 'manually during setup', manager),
          createdDepartment: created,
        };
      });
      if (createdDepartment) {
        await announce(this.bus, this.log, {
          channel: Channel.Departments,
          event_type: 'department.created',
          payload: { name: departmentName },
        });
      }
      await this.agents.announceHired([agent]);
      return toSummary(agent);
    });
  }

  async listAgents(): Promise<SetupAgentListDto> {
    const roster = await this.agentsRepo.all();
    return { agents: roster.map(toSummary), agent_count: roster.length };
  }

  async setAgentModel(index: number, provider: string, modelRef: string): Promise<SetupAgentSummaryDto> {
    return this.editAgent(index, async () => {
      const model = await this.resolveModel(provider, modelRef);
      return { modelProvider: model.provider, modelId: model.id };
    });
  }

  async setAgentName(index: number, name: string): Promise<SetupAgentSummaryDto> {
    const trimmed = name.trim();
    if (!trimmed) {
      throw new ValidationError('name: must not be blank', ErrorCode.RequestValidationError);
    }
    return this.editAgent(index, () => Promise.resolve({ name: trimmed }));
  }

  async randomizeAgentName(index: number): Promise<SetupAgentSummaryDto> {
    return this.editAgent(index, async () => ({
      name: this.names.randomName(await this.nameLocales(), { exclude: await this.agentsRepo.namesInUse() }),
    }));
  }

  async setAgentPersonality(index: number, presetName: string): Promise<SetupAgentSummaryDto> {
    return this.editAgent(index, async () => {
      const preset = await this.personalities.resolve(presetName);
      return { personalityPreset: preset.name, personality: { ...preset.personality } };
    });
  }

  async nameLocales(): Promise<string[]> {
    const stored = await this.setup.read(NAME_LOCALES);
    if (stored === null) {
      return [...DEFAULT_NAME_LOCALES];
    }
    try {
      return normalizeNameLocales(JSON.parse(stored) as string[]);
    } catch {
      this.log.warn({ stored }, 'setup.name_locales.unreadable');
      return [...DEFAULT_NAME_LOCALES];
    }
  }

  async setNameLocales(actor: ActorContext, locales: string[]): Promise<string[]> {
    const normalized = normalizeNameLocales(locales);
    return this.lock.runExclusive(SETUP_LOCK, async () => {
      await this.assertNotComplete();
      await this.setup.write(NAME_LOCALES, JSON.stringify(normalized));
      this.log.info({ actor: actor.username, locales: normalized }, 'setup.name_locales.updated');
      return normalized;
    });
  }

  /** check → validate → reinitialise → persist, under the wizard lock (and across replicas). */
  async complete(actor: ActorContext): Promise<SetupCompleteDto> {
    return this.lock.runExclusive(SETUP_LOCK, async () => {
      await this.assertNotComplete();
      if (!(await this.company.findCompany())) {
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
      await this.setup.write(SETUP_COMPLETE, 'true');
      this.audit.info({ actor: actor.username, steps: ran }, 'setup.wizard.completed');
      await announce(this.bus, this.log, {
        channel: Channel.Company,
        event_type: 'company.setup_completed',
        payload: { steps: ran },
      });
      return { setup_complete: true, reinitialised: ran };
    });
  }

  async isComplete(): Promise<boolean> {
    return (await this.setup.read(SETUP_COMPLETE)) === 'true';
  }

  private async assertNotComplete(): Promise<void> {
    if (await this.isComplete()) {
      throw new ConflictError('Setup is already complete; the wizard is read-only now', ErrorCode.SetupAlreadyComplete);
    }
  }

  private async editAgent(
    index: number,
    changes: () => Promise<Parameters<AgentsService['edit']>[1]>,
  ): Promise<SetupAgentSummaryDto> {
    return this.lock.runExclusive(SETUP_LOCK, async () => {
      await this.assertNotComplete();
      const roster = await this.agentsRepo.all();
      const agent = roster[index];
      if (!agent) {
        throw new NotFoundError(
          `agent_index ${index} is out of range: the roster has ${roster.length} agent(s)`,
          ErrorCode.AgentNotFound,
        );
      }
      return toSummary(await this.agents.edit(agent, await changes()));
    });
  }

  private async resolveModel(provider: string, modelRef: string): Promise<{ provider: string; id: string }> {
    const entry = await this.catalog.provider(provider);
    if (!entry) {
      throw new NotFoundError(`Provider "${provider}" not found`, ErrorCode.ProviderNotFound);
    }
    const model = findCatalogModel(entry.models, provider, modelRef);
    if (!model) {
      throw new ValidationError(
        `model_id: provider "${provider}" does not offer "${modelRef}"`,
        ErrorCode.RequestValidationError,
      );
    }
    return { provider: model.provider, id: model.id };
  }

  /** Creates the department of a manually added agent (at the end, no budget share) when missing. */
  private async ensureDepartment(name: string, manager: EntityManager): Promise<boolean> {
    if (await this.company.findDepartment(nameKey(name), manager)) {
      return false;
    }
    const position = await this.company.nextDepartmentPosition(manager);
    await this.company.insertDepartments([newDepartment(name, position, new Date())], manager);
    return true;
  }

  /** Template roster → hires: names from the chosen locales, models matched to the providers. */
  private async planHires(plan: CompanyPlan): Promise<NewAgent[]> {
    const [models, locales] = await Promise.all([this.catalog.models(), this.nameLocales()]);
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
}

function newDepartment(
  name: string,
  position: number,
  now: Date,
  shape: { head: string | null; budgetPercent: number } = { head: null, budgetPercent: 0 },
): DepartmentEntity {
  return {
    id: randomUUID(),
    name,
    nameKey: nameKey(name),
    position,
    head: shape.head,
    budgetPercent: shape.budgetPercent,
    autonomyLevel: null,
    teams: [],
    reportingLines: [],
    policies: {},
    ceremonyPolicy: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

function toSummary(agent: AgentEntity): SetupAgentSummaryDto {
  const config = toAgentConfig(agent);
  return {
    name: config.name,
    role: config.role,
    department: config.department,
    level: config.level,
    model_provider: config.model.provider,
    model_id: config.model.model_id,
    tier: config.tier,
    personality_preset: config.personality_preset,
  };
}
