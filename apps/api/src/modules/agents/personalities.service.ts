import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  BUILTIN_PERSONALITY_PRESETS,
  builtinPreset,
  Channel,
  ConflictError,
  ErrorCode,
  type EventTypeOf,
  normalizePersonality,
  normalizePresetName,
  NotFoundError,
  type PersonalityConfig,
  ValidationError,
} from '@app/domain';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import type { PersonalityPresetDto, PersonalityPresetSummaryDto } from './dto/personality.dto';
import { PersonalitiesRepository } from './personalities.repository';

/** The company channel's announcements of preset changes. */
type PersonalityEventType = Extract<EventTypeOf<typeof Channel.Company>, `personality.${string}`>;

export interface ResolvedPreset {
  name: string;
  source: 'builtin' | 'custom';
  personality: PersonalityConfig;
  createdAt: Date | null;
  updatedAt: Date | null;
}

/** Personality presets: 20 built-ins (read-only) plus the organisation's own. */
@Injectable()
export class PersonalitiesService {
  private readonly log: Logger;

  constructor(
    private readonly presets: PersonalitiesRepository,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.personalities');
  }

  async list(): Promise<PersonalityPresetSummaryDto[]> {
    return (await this.all()).map((p) => ({
      name: p.name,
      description: p.personality.description,
      traits: [...p.personality.traits],
      source: p.source,
    }));
  }

  async all(): Promise<ResolvedPreset[]> {
    const builtins: ResolvedPreset[] = BUILTIN_PERSONALITY_PRESETS.map((p) => ({
      name: p.name,
      source: 'builtin',
      personality: p.personality,
      createdAt: null,
      updatedAt: null,
    }));
    const custom = (await this.presets.all()).map((row): ResolvedPreset => ({
      name: row.name,
      source: 'custom',
      personality: normalizePersonality(row.personality),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }));
    return [...builtins, ...custom];
  }

  async get(rawName: string): Promise<PersonalityPresetDto> {
    return toDto(await this.resolve(rawName));
  }

  /** A preset by name (built-in or custom); 404 when there is none. */
  async resolve(rawName: string): Promise<ResolvedPreset> {
    const name = rawName.trim().toLowerCase();
    const builtin = builtinPreset(name);
    if (builtin) {
      return {
        name: builtin.name,
        source: 'builtin',
        personality: builtin.personality,
        createdAt: null,
        updatedAt: null,
      };
    }
    const row = await this.presets.find(name);
    if (!row) {
      throw new NotFoundError(`Personality preset "${rawName}" not found`, ErrorCode.PersonalityPresetNotFound);
    }
    return {
      name: row.name,
      source: 'custom',
      personality: normalizePersonality(row.personality),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  async create(actor: ActorContext, body: Record<string, unknown>): Promise<PersonalityPresetDto> {
    const { name: rawName, ...fields } = body;
    if (typeof rawName !== 'string') {
      throw new ValidationError('name: required, a string of 1 to 100 characters', ErrorCode.RequestValidationError);
    }
    const name = normalizePresetName(rawName);
    const personality = normalizePersonality(fields);
    if (builtinPreset(name) || (await this.presets.find(name))) {
      throw new ConflictError(`A personality preset named "${name}" already exists`, ErrorCode.DuplicateRecord);
    }
    const now = new Date();
    try {
      await this.presets.insert({ name, personality: { ...personality }, createdAt: now, updatedAt: now });
    } catch (error) {
      if (await this.presets.find(name)) {
        throw new ConflictError(`A personality preset named "${name}" already exists`, ErrorCode.DuplicateRecord);
      }
      throw error;
    }
    const preset: ResolvedPreset = { name, source: 'custom', personality, createdAt: now, updatedAt: now };
    await this.announce(actor, 'personality.created', preset);
    return toDto(preset);
  }

  async update(actor: ActorContext, rawName: string, body: Record<string, unknown>): Promise<PersonalityPresetDto> {
    const current = await this.resolveMutable(rawName);
    if ('name' in body) {
      throw new ValidationError('name: a preset cannot be renamed', ErrorCode.RequestValidationError);
    }
    const personality = normalizePersonality(body);
    const updatedAt = await this.presets.update(current.name, { ...personality });
    const preset: ResolvedPreset = { ...current, personality, updatedAt };
    await this.announce(actor, 'personality.updated', preset);
    return toDto(preset);
  }

  async delete(actor: ActorContext, rawName: string): Promise<void> {
    const current = await this.resolveMutable(rawName);
    if (!(await this.presets.delete(current.name))) {
      throw new NotFoundError(`Personality preset "${rawName}" not found`, ErrorCode.PersonalityPresetNotFound);
    }
    await this.announce(actor, 'personality.deleted', current);
  }

  private async resolveMutable(rawName: string): Promise<ResolvedPreset> {
    const preset = await this.resolve(rawName);
    if (preset.source === 'builtin') {
      throw new ConflictError(
        `"${preset.name}" is a built-in preset and cannot be modified or deleted; create a custom preset instead`,
        ErrorCode.BuiltinPresetImmutable,
      );
    }
    return preset;
  }

  private async announce(actor: ActorContext, eventType: PersonalityEventType, preset: ResolvedPreset): Promise<void> {
    this.log.info({ actor: actor.username, preset: preset.name }, `hr.${eventType}`);
    await announce(this.bus, this.log, {
      channel: Channel.Company,
      event_type: eventType,
      payload: { name: preset.name, source: preset.source },
    });
  }
}

function toDto(preset: ResolvedPreset): PersonalityPresetDto {
  return {
    name: preset.name,
    source: preset.source,
    ...preset.personality,
    traits: [...preset.personality.traits],
    created_at: preset.createdAt?.toISOString() ?? null,
    updated_at: preset.updatedAt?.toISOString() ?? null,
  };
}
