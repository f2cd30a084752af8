import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { ErrorCode, HumanRole, NotFoundError, PASSWORD_MIN_LENGTH, ValidationError } from '@app/domain';
import {
  type ActorContext,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  SettingsStore,
  UnreadableSettingError,
} from '@app/platform';

import { type AgentEdit, AgentRoster, PersonalitiesService } from '../agents';
import { CompanyFacade } from '../company';
import { ModelCatalog } from '../providers';
import { UserDirectory } from '../users';
import type { SetupAgentListDto, SetupAgentSummaryDto, SetupStatusDto } from './dto/setup.dto';
import { NameGenerator } from './names/name-generator';
import { DEFAULT_NAME_LOCALES, normalizeNameLocales } from './names/name-locales';
import { toSetupAgentSummary } from './setup.mapper';
import { NAME_LOCALES } from './setup.settings';
import { WizardGate } from './wizard-gate';

/**
 * The first-run wizard's reads and single-row edits: status, the roster by index, name locales.
 * Creating the company, adding an agent and completing setup are use cases of their own.
 */
@Injectable()
export class SetupService {
  private readonly log: Logger;

  constructor(
    private readonly gate: WizardGate,
    private readonly settings: SettingsStore,
    private readonly users: UserDirectory,
    private readonly company: CompanyFacade,
    private readonly roster: AgentRoster,
    private readonly personalities: PersonalitiesService,
    private readonly catalog: ModelCatalog,
    private readonly names: NameGenerator,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('setup');
  }

  async status(): Promise<SetupStatusDto> {
    const [ceos, complete, company, agentCount, providerCount, hasLocales] = await Promise.all([
      this.users.countWithRole(HumanRole.Ceo),
      this.gate.isComplete(),
      this.company.find(),
      this.roster.count(),
      this.catalog.count(),
      this.settings.has(NAME_LOCALES),
    ]);
    return {
      needs_admin: ceos === 0,
      needs_setup: !complete,
      has_company: company !== null,
      has_agents: agentCount > 0,
      has_providers: providerCount > 0,
      has_name_locales: hasLocales,
      min_password_length: PASSWORD_MIN_LENGTH,
    };
  }

  async listAgents(): Promise<SetupAgentListDto> {
    const roster = await this.roster.all();
    return { agents: roster.map(toSetupAgentSummary), agent_count: roster.length };
  }

  async setAgentModel(index: number, provider: string, modelRef: string): Promise<SetupAgentSummaryDto> {
    return this.editAgent(index, async () => {
      const model = await this.gate.resolveModel(provider, modelRef);
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
      name: this.names.randomName(await this.nameLocales(), { exclude: await this.roster.namesInUse() }),
    }));
  }

  async setAgentPersonality(index: number, presetName: string): Promise<SetupAgentSummaryDto> {
    return this.editAgent(index, async () => {
      const preset = await this.personalities.resolve(presetName);
      return { personalityPreset: preset.name, personality: { ...preset.personality } };
    });
  }

  /** The chosen name locales; a stored choice that cannot be read falls back to the default (and is logged). */
  async nameLocales(): Promise<string[]> {
    try {
      return (await this.settings.get(NAME_LOCALES)) ?? [...DEFAULT_NAME_LOCALES];
    } catch (error) {
      if (!(error instanceof UnreadableSettingError)) {
        throw error;
      }
      this.log.warn({ stored: error.raw }, 'setup.name_locales.unreadable');
      return [...DEFAULT_NAME_LOCALES];
    }
  }

  async setNameLocales(actor: ActorContext, locales: string[]): Promise<string[]> {
    const normalized = normalizeNameLocales(locales);
    return this.gate.whileOpen(async () => {
      await this.settings.set(NAME_LOCALES, normalized);
      this.log.info({ actor: actor.username, locales: normalized }, 'setup.name_locales.updated');
      return normalized;
    });
  }

  private async editAgent(index: number, changes: () => Promise<AgentEdit>): Promise<SetupAgentSummaryDto> {
    return this.gate.whileOpen(async () => {
      const roster = await this.roster.all();
      const agent = roster[index];
      if (!agent) {
        throw new NotFoundError(
          `agent_index ${index} is out of range: the roster has ${roster.length} agent(s)`,
          ErrorCode.AgentNotFound,
        );
      }
      return toSetupAgentSummary(await this.roster.edit(agent, await changes()));
    });
  }
}
