import { Injectable } from '@nestjs/common';

import {
  type AgentFieldChange,
  assertAgentStatusEdit,
  diffAgentFields,
  ErrorCode,
  findCatalogModel,
  NotFoundError,
  normalizePersonality,
  type PersonalityConfig,
  ValidationError,
} from '@app/domain';
import type { AgentEntity, DepartmentEntity, JsonObject } from '@app/persistence';

import { type AgentEdit, AgentRoster, type AgentSettings, PersonalitiesService } from '../agents';
import { CompanyFacade } from '../company';
import { ModelCatalog } from '../providers';
import type { UpdateAgentDto } from './dto/agent-edit.dto';

/** What an edit does to an agent: its row's changes and the parts that differ, before and after. */
export interface AgentEditPlan {
  changes: AgentEdit;
  fieldChanges: AgentFieldChange[];
  /** The department the agent ends in, when the edit names one. */
  department: DepartmentEntity | null;
}

/** The settings groups an edit may change, as the request and the response name them. */
const GROUPS = ['tools', 'memory', 'authority'] as const;

/**
 * Turns a request into an agent's changes, checking what it refers to against the company: the
 * department (2997), the personality preset (2996), the provider (2999) and the models (2998).
 * Reads only: nothing is written here.
 */
@Injectable()
export class AgentEditPlanner {
  constructor(
    private readonly roster: AgentRoster,
    private readonly personalities: PersonalitiesService,
    private readonly catalog: ModelCatalog,
    private readonly company: CompanyFacade,
  ) {}

  async plan(agent: AgentEntity, dto: UpdateAgentDto): Promise<AgentEditPlan> {
    const shown = this.roster.render(agent);
    const settings = this.roster.settingsOf(agent);
    const changes: AgentEdit = {};
    const after: Record<string, unknown> = {};
    if (dto.name !== undefined) {
      changes.name = after.name = requireText('name', dto.name);
    }
    const department = dto.department === undefined ? null : await this.department(dto.department);
    if (department) {
      changes.department = after.department = department.nameKey;
    }
    if (dto.status !== undefined) {
      assertAgentStatusEdit(agent.status, dto.status);
      changes.status = after.status = dto.status;
    }
    if (dto.personality_preset !== undefined || dto.personality !== undefined) {
      const personality = await this.personality(agent, dto);
      changes.personalityPreset = after.personality_preset = personality.preset;
      changes.personality = after.personality = { ...personality.fields } as unknown as JsonObject;
    }
    const nextSettings: AgentSettings = { ...(agent.settings as AgentSettings) };
    if (dto.model !== undefined) {
      const model = await this.model(agent, dto.model);
      Object.assign(changes, { modelProvider: model.provider, modelId: model.id });
      nextSettings.model = { ...settings.model, ...model.params };
      after.model = { provider: model.provider, model_id: model.id, ...nextSettings.model };
    }
    for (const group of GROUPS) {
      const patch = dto[group];
      if (patch !== undefined) {
        nextSettings[group] = { ...settings[group], ...definedFields(patch) };
        // The view shows the effective memory level; a patch that leaves it unset keeps following the default.
        after[group] = group === 'memory' ? { type: shown.memory.type, ...nextSettings.memory } : nextSettings[group];
      }
    }
    if (dto.model !== undefined || GROUPS.some((group) => dto[group] !== undefined)) {
      changes.settings = nextSettings;
    }
    if (dto.budget_limit_monthly !== undefined) {
      changes.budgetLimitMonthly = after.budget_limit_monthly = dto.budget_limit_monthly;
    }
    const fieldChanges = diffAgentFields(shown as unknown as Record<string, unknown>, after);
    const changed = new Set(fieldChanges.map((change) => change.field));
    return { changes: changed.size === 0 ? {} : changes, fieldChanges, department };
  }

  private async department(name: string): Promise<DepartmentEntity> {
    const department = await this.company.findDepartment(requireText('department', name));
    if (!department) {
      throw new ValidationError(
        `department: the company has no department "${name}"`,
        ErrorCode.AgentDepartmentUnknown,
      );
    }
    return department;
  }

  /** A preset's personality, the current one, or either with the given fields on top (then no preset). */
  private async personality(
    agent: AgentEntity,
    dto: UpdateAgentDto,
  ): Promise<{ preset: string | null; fields: PersonalityConfig }> {
    const preset = dto.personality_preset === undefined ? null : await this.preset(dto.personality_preset);
    const base = preset ? preset.personality : (agent.personality as Record<string, unknown>);
    if (dto.personality === undefined) {
      return { preset: preset?.name ?? null, fields: normalizePersonality({ ...base }) };
    }
    return { preset: null, fields: normalizePersonality({ ...base, ...dto.personality }) };
  }

  private async preset(name: string): Promise<{ name: string; personality: Record<string, unknown> }> {
    try {
      const preset = await this.personalities.resolve(name);
      return { name: preset.name, personality: { ...preset.personality } };
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new ValidationError(
          `personality_preset: no preset "${name}" (see /personalities/presets)`,
          ErrorCode.AgentPersonalityPresetUnknown,
        );
      }
      throw error;
    }
  }

  /**
   * The model the agent ends with: the named (or current) provider must be registered and offer the
   * named (or current) model; a fallback model must be offered by some provider.
   */
  private async model(
    agent: AgentEntity,
    patch: NonNullable<UpdateAgentDto['model']>,
  ): Promise<{ provider: string | null; id: string | null; params: AgentSettings['model'] }> {
    let provider = agent.modelProvider;
    let id = agent.modelId;
    if (patch.provider !== undefined || patch.model_id !== undefined) {
      const resolved = await this.resolveModel(patch.provider ?? agent.modelProvider, patch.model_id ?? agent.modelId);
      provider = resolved.provider;
      id = resolved.id;
    }
    const params: AgentSettings['model'] = definedFields({
      temperature: patch.temperature,
      max_tokens: patch.max_tokens,
      fallback_model: patch.fallback_model,
    });
    if (typeof patch.fallback_model === 'string') {
      const offered = (await this.catalog.models()).some(
        (m) => m.id === patch.fallback_model || m.alias === patch.fallback_model,
      );
      if (!offered) {
        throw new ValidationError(
          `model.fallback_model: no registered provider offers "${patch.fallback_model}"`,
          ErrorCode.AgentModelUnknown,
        );
      }
    }
    return { provider, id, params };
  }

  private async resolveModel(provider: string | null, ref: string | null): Promise<{ provider: string; id: string }> {
    const entry = provider === null ? null : await this.catalog.provider(provider);
    if (!entry) {
      throw new ValidationError(
        provider === null
          ? 'model.provider: the agent has no provider yet; name one'
          : `model.provider: no registered provider "${provider}"`,
        ErrorCode.AgentProviderUnknown,
      );
    }
    const model = ref === null ? undefined : findCatalogModel(entry.models, entry.name, ref);
    if (!model) {
      throw new ValidationError(
        `model.model_id: provider "${entry.name}" does not offer "${ref ?? '(none)'}"`,
        ErrorCode.AgentModelUnknown,
      );
    }
    return { provider: model.provider, id: model.id };
  }
}

function requireText(field: string, value: string): string {
  const trimmed = value.trim();
  if (!trimmed) {
    throw new ValidationError(`${field}: must not be blank`, ErrorCode.RequestValidationError);
  }
  return trimmed;
}

/** The fields a request gave (the validation pipe leaves absent ones undefined). */
function definedFields<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
