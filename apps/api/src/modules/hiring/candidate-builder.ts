import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import {
  type CatalogModel,
  ErrorCode,
  estimateMonthlyCost,
  HIRING_LIMITS,
  type ModelTier,
  nameKey,
  pickModelForTier,
  presetForRole,
  type SeniorityLevel,
  tierForSeniority,
  ValidationError,
} from '@app/domain';
import type { HiringCandidateEntry } from '@app/persistence';

import { AgentRoster, PersonalitiesService } from '../agents';
import { ModelCatalog, ModelRouter } from '../providers';
import { NameGenerator, SetupService, TemplateCatalog } from '../setup';

/** What the candidates are built for. */
export interface CandidateSpec {
  department: string;
  role: string;
  level: SeniorityLevel;
  skills: string[];
  /** The template whose roles come first; null: none. */
  template: string | null;
}

/**
 * Builds a hiring request's candidates: the template's entries for the role first (their personality
 * preset and model tier; at most three distinct ones), otherwise one candidate made from the request
 * (a preset fitting the role, the model the seniority table maps the level to through the router).
 * Names come from the name generator and the company's name locales; each card carries its
 * estimated monthly cost at its model's prices.
 */
@Injectable()
export class CandidateBuilder {
  constructor(
    private readonly templates: TemplateCatalog,
    private readonly names: NameGenerator,
    private readonly setup: SetupService,
    private readonly roster: AgentRoster,
    private readonly personalities: PersonalitiesService,
    private readonly catalog: ModelCatalog,
    private readonly router: ModelRouter,
  ) {}

  hasTemplate(name: string): boolean {
    return this.templates.has(name);
  }

  async build(spec: CandidateSpec): Promise<HiringCandidateEntry[]> {
    const [locales, taken, models] = await Promise.all([
      this.setup.nameLocales(),
      this.roster.namesInUse(),
      this.catalog.models(),
    ]);
    const drawName = (): string => {
      const name = this.names.randomName(locales, { exclude: taken });
      taken.add(nameKey(name));
      return name;
    };
    const fromTemplate = this.templateRoles(spec);
    const candidates: HiringCandidateEntry[] = [];
    for (const entry of fromTemplate) {
      const model = pickModelForTier(models, entry.modelTier);
      if (model === null) {
        throw noModel();
      }
      const preset = await this.personalities.resolve(entry.personalityPreset);
      candidates.push(
        card(spec, drawName(), preset.name, model, entry.modelTier, spec.template, [
          `The ${spec.template} template's ${entry.role}`,
          `personality ${preset.name}, ${entry.modelTier} model ${model.provider}/${model.id}`,
        ]),
      );
    }
    if (candidates.length > 0) {
      return candidates;
    }
    const preset = await this.personalities.resolve(presetForRole(spec.role));
    let routed: CatalogModel;
    let reason: string;
    try {
      const decision = this.router.forSeniority(spec.level);
      routed = decision.model;
      reason = decision.reason;
    } catch {
      throw noModel();
    }
    return [
      card(spec, drawName(), preset.name, routed, tierForSeniority(spec.level), null, [
        `Built for the request: personality ${preset.name} fits "${spec.role}"`,
        reason,
      ]),
    ];
  }

  /** The template's roster entries for the role (case-insensitive), distinct by preset and model tier. */
  private templateRoles(spec: CandidateSpec): Array<{ role: string; personalityPreset: string; modelTier: ModelTier }> {
    if (spec.template === null || !this.templates.has(spec.template)) {
      return [];
    }
    const seen = new Set<string>();
    const found: Array<{ role: string; personalityPreset: string; modelTier: ModelTier }> = [];
    for (const planned of this.templates.roles(spec.template)) {
      const key = `${planned.personalityPreset}/${planned.modelTier}`;
      if (nameKey(planned.role) !== nameKey(spec.role) || seen.has(key)) {
        continue;
      }
      seen.add(key);
      found.push(planned);
    }
    return found.slice(0, HIRING_LIMITS.candidates);
  }
}

function card(
  spec: CandidateSpec,
  name: string,
  preset: string,
  model: Pick<CatalogModel, 'provider' | 'id' | 'costPer1kInput' | 'costPer1kOutput'>,
  tier: ModelTier,
  templateSource: string | null,
  rationale: string[],
): HiringCandidateEntry {
  return {
    id: randomUUID(),
    name,
    role: spec.role,
    department: spec.department,
    level: spec.level,
    skills: [...spec.skills],
    rationale: rationale.join('; '),
    estimatedMonthlyCost: estimateMonthlyCost(model),
    templateSource,
    personalityPreset: preset,
    modelProvider: model.provider,
    modelId: model.id,
    modelTier: tier,
  };
}

function noModel(): ValidationError {
  return new ValidationError(
    'No registered provider offers a model: register one (POST /api/v1/providers) before hiring',
    ErrorCode.HiringNoModel,
  );
}
