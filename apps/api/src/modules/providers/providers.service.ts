import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  applySecretChange,
  assertAuthConsistency,
  assertSecretsFollowDestination,
  assertProviderName,
  assertUniqueModelRefs,
  type AuthType,
  Channel,
  ConflictError,
  ErrorCode,
  type EventTypeOf,
  findPreset,
  NotFoundError,
  Page,
  type PageRequest,
  parseBaseUrl,
  parseDegradationConfig,
  parseLocalModelParams,
  parseQuotaLimits,
  type ProviderChangedPayload,
  type ProviderModel,
  type ProviderPreset,
  type ProviderSecrets,
  quotaLimitsToJson,
  degradationToJson,
  resolveEndpoint,
  changedSecretNames,
  type SecretInput,
  secretChange,
  ValidationError,
} from '@app/domain';
import { type JsonObject, ProviderEntity } from '@app/persistence';
import {
  type ActorContext,
  announce,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  SecretCipher,
} from '@app/platform';

import { AuditTrail } from '../audit';
import { DiscoveryPolicyService } from './discovery/discovery-policy.service';
import type { ModelEntryDto } from './dto/model.dto';
import type { CreateProviderDto, ProviderDto, UpdateProviderDto } from './dto/provider.dto';
import { ProviderRegistry } from './provider-registry';
import { DEFAULT_MAX_CONTEXT, modelToJson, type ProviderRecord, sealSecrets, toRecord } from './provider-record';
import { toProviderDto } from './providers.mapper';
import { ProviderUsage } from './provider-usage';
import { ProvidersRepository } from './providers.repository';

/** One provider's new state, validated, before it is written. */
interface ProviderDraft {
  name: string;
  preset: ProviderPreset | undefined;
  gatewayProvider: string | null;
  family: string | null;
  authType: AuthType;
  baseUrl: string | null;
  models: ProviderModel[];
  degradation: JsonObject;
  quota: JsonObject;
  secrets: ProviderSecrets;
  oauth: { tokenUrl: string | null; clientId: string | null; scope: string | null };
  customHeaderName: string | null;
  tosAcceptedAt: Date | null;
}

export function toProviderModel(dto: ModelEntryDto): ProviderModel {
  return {
    id: dto.id,
    alias: dto.alias ?? null,
    costPer1kInput: dto.cost_per_1k_input ?? 0,
    costPer1kOutput: dto.cost_per_1k_output ?? 0,
    maxContext: dto.max_context ?? DEFAULT_MAX_CONTEXT,
    estimatedLatencyMs: dto.estimated_latency_ms ?? null,
    localParams: dto.local_params ? compactParams(dto.local_params) : null,
  };
}

function compactParams(raw: unknown): Record<string, number | null> {
  return { ...parseLocalModelParams(raw) };
}

function normaliseBaseUrl(raw: string | undefined | null): string | null {
  if (raw === undefined || raw === null || raw.trim() === '') {
    return null;
  }
  return parseBaseUrl(raw.trim()).toString().replace(/\/+$/, '');
}

function endpointOf(draft: ProviderDraft): string {
  return resolveEndpoint(draft.baseUrl, draft.preset?.name ?? null, draft.gatewayProvider ?? draft.name);
}

/** Where a provider sends requests and credentials: its endpoint and, for OAuth, the token URL. */
function destinationsOf(draft: ProviderDraft): string[] {
  return [endpointOf(draft), ...(draft.oauth.tokenUrl ? [draft.oauth.tokenUrl] : [])];
}

/** Provider CRUD: validation, encryption of secrets, registry reload and the change announcement. */
@Injectable()
export class ProvidersService {
  private readonly audit: Logger;
  private readonly log: Logger;

  constructor(
    private readonly repository: ProvidersRepository,
    private readonly registry: ProviderRegistry,
    private readonly usage: ProviderUsage,
    private readonly cipher: SecretCipher,
    private readonly bus: EventBus,
    private readonly trail: AuditTrail,
    private readonly addresses: DiscoveryPolicyService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.audit = logging.forName('security.audit');
    this.log = logging.forName('providers');
  }

  async list(page: PageRequest): Promise<Page<ProviderDto>> {
    const { items, total } = await this.repository.page(page.offset, page.limit);
    return new Page(
      items.map((row) => toProviderDto(toRecord(row, this.cipher))),
      total,
      page.offset,
      page.limit,
    );
  }

  async get(name: string): Promise<ProviderDto> {
    return toProviderDto(await this.record(name));
  }

  /** 404 (3020) for an unknown provider, without reading its secrets. */
  async assertExists(name: string): Promise<void> {
    if (!(await this.repository.findByName(name))) {
      throw new NotFoundError(`provider "${name}" not found`, ErrorCode.ProviderNotFound);
    }
  }

  /** The stored provider, decrypted (404 when unknown). */
  async record(name: string): Promise<ProviderRecord> {
    const row = await this.repository.findByName(name);
    if (!row) {
      throw new NotFoundError(`provider "${name}" not found`, ErrorCode.ProviderNotFound);
    }
    return toRecord(row, this.cipher);
  }

  async create(actor: ActorContext, dto: CreateProviderDto): Promise<ProviderDto> {
    assertProviderName(dto.name);
    const preset = dto.preset_name === undefined ? undefined : this.preset(dto.preset_name);
    const inputs = secretInputs(dto, {});
    const draft = this.validate({
      name: dto.name,
      preset,
      gatewayProvider: dto.gateway_provider ?? (preset ? preset.gateway_provider : null),
      family: dto.family ?? null,
      authType: dto.auth_type ?? preset?.auth_type ?? 'api_key',
      baseUrl: normaliseBaseUrl(dto.base_url ?? preset?.default_base_url),
      models: (dto.models ?? []).map(toProviderModel),
      degradation: dto.degradation ?? {},
      quota: dto.quota ?? {},
      secrets: secretsAfter(inputs, {}),
      oauth: {
        tokenUrl: normaliseBaseUrl(dto.oauth_token_url),
        clientId: dto.oauth_client_id ?? null,
        scope: dto.oauth_scope ?? null,
      },
      customHeaderName: dto.custom_header_name ?? null,
      tosAcceptedAt: dto.tos_accepted ? new Date() : null,
    });
    if (await this.repository.findByName(dto.name)) {
      throw new ConflictError(`provider "${dto.name}" already exists`, ErrorCode.DuplicateRecord);
    }
    await this.addresses.admit(actor, destinationsOf(draft), dto.trust_address === true);
    const now = new Date();
    const entity = this.toEntity(draft, 1, now, now);
    try {
      await this.repository.insert(entity);
    } catch (error) {
      if (await this.repository.findByName(dto.name)) {
        throw new ConflictError(`provider "${dto.name}" already exists`, ErrorCode.DuplicateRecord);
      }
      throw error;
    }
    await this.changed(actor, 'provider.created', dto.name, {}, changedSecretNames(Object.values(inputs)));
    return this.get(dto.name);
  }

  async update(actor: ActorContext, name: string, dto: UpdateProviderDto): Promise<ProviderDto> {
    const current = await this.record(name);
    const inputs = secretInputs(dto, current.secrets);
    const draft = this.validate({
      name,
      preset: current.preset ? findPreset(current.preset) : undefined,
      gatewayProvider: dto.gateway_provider ?? current.gatewayProviderSetting,
      family: dto.family ?? current.family,
      authType: dto.auth_type ?? current.authType,
      baseUrl: dto.base_url !== undefined ? normaliseBaseUrl(dto.base_url) : current.baseUrl,
      models: dto.models ? dto.models.map(toProviderModel) : current.models,
      degradation: dto.degradation
        ? { ...degradationToJson(current.degradation), ...dto.degradation }
        : degradationToJson(current.degradation),
      quota: dto.quota ? { ...quotaLimitsToJson(current.quota), ...dto.quota } : quotaLimitsToJson(current.quota),
      secrets: secretsAfter(inputs, current.secrets),
      oauth: {
        tokenUrl: dto.oauth_token_url !== undefined ? normaliseBaseUrl(dto.oauth_token_url) : current.oauth.tokenUrl,
        clientId: dto.oauth_client_id ?? current.oauth.clientId,
        scope: dto.oauth_scope ?? current.oauth.scope,
      },
      customHeaderName: dto.custom_header_name ?? current.customHeaderName,
      tosAcceptedAt: dto.tos_accepted === true ? new Date() : dto.tos_accepted === false ? null : current.tosAcceptedAt,
    });
    assertSecretsFollowDestination(
      'provider',
      [
        { wireName: 'base_url', before: current.endpoint, after: endpointOf(draft) },
        { wireName: 'oauth_token_url', before: current.oauth.tokenUrl, after: draft.oauth.tokenUrl },
      ],
      Object.values(inputs),
      ErrorCode.ProviderCredentialsRequired,
    );
    const before = [current.endpoint, current.oauth.tokenUrl];
    const moved = destinationsOf(draft).filter((target) => !before.includes(target));
    await this.addresses.admit(actor, moved, dto.trust_address === true);
    await this.write(draft, current);
    await this.changed(actor, 'provider.updated', name, {}, changedSecretNames(Object.values(inputs)));
    return this.get(name);
  }

  /** Replaces the model list of a stored provider (discovery, pull, delete, launch config). */
  async replaceModels(
    actor: ActorContext,
    name: string,
    models: ProviderModel[],
    reason: string,
  ): Promise<ProviderRecord> {
    const current = await this.record(name);
    assertUniqueModelRefs(models);
    const draft: ProviderDraft = {
      ...this.draftOf(current),
      models,
    };
    await this.write(draft, current);
    await this.changed(actor, 'provider.models_changed', name, { reason, model_count: models.length });
    return this.record(name);
  }

  async delete(actor: ActorContext, name: string): Promise<void> {
    await this.assertExists(name);
    const users = await this.usage.agentsUsing(name);
    if (users.length > 0) {
      throw new ConflictError(
        `provider "${name}" serves the models of agents ${users.map((u) => `"${u}"`).join(', ')}; ` +
          'assign them other models first',
        ErrorCode.ProviderInUse,
      );
    }
    await this.repository.delete(name);
    await this.changed(actor, 'provider.deleted', name, {}, []);
  }

  preset(name: string): ProviderPreset {
    const preset = findPreset(name);
    if (!preset) {
      throw new NotFoundError(`preset "${name}" not found`, ErrorCode.ProviderPresetNotFound);
    }
    return preset;
  }

  private draftOf(record: ProviderRecord): ProviderDraft {
    return {
      name: record.name,
      preset: record.preset ? findPreset(record.preset) : undefined,
      gatewayProvider: record.gatewayProviderSetting,
      family: record.family,
      authType: record.authType,
      baseUrl: record.baseUrl,
      models: record.models,
      degradation: degradationToJson(record.degradation),
      quota: quotaLimitsToJson(record.quota),
      secrets: record.secrets,
      oauth: record.oauth,
      customHeaderName: record.customHeaderName,
      tosAcceptedAt: record.tosAcceptedAt,
    };
  }

  /** Every rule a provider's state must satisfy; normalises degradation and quota to their stored form. */
  private validate(draft: ProviderDraft): ProviderDraft {
    assertUniqueModelRefs(draft.models);
    const degradation = parseDegradationConfig(draft.degradation);
    if (degradation.fallbackProviders.includes(draft.name)) {
      throw new ValidationError(
        'degradation.fallback_providers must not name the provider itself',
        ErrorCode.ProviderFallbackInvalid,
      );
    }
    const quota = parseQuotaLimits(draft.quota);
    const secrets = Object.fromEntries(
      Object.entries(draft.secrets).filter(([, v]) => typeof v === 'string' && v !== ''),
    ) as ProviderSecrets;
    assertAuthConsistency({ ...draft, secrets }, draft.preset);
    endpointOf(draft);
    return {
      ...draft,
      secrets,
      degradation: degradationToJson(degradation),
      quota: quotaLimitsToJson(quota),
    };
  }

  private toEntity(draft: ProviderDraft, version: number, createdAt: Date, updatedAt: Date): ProviderEntity {
    const entity = new ProviderEntity();
    Object.assign(entity, {
      name: draft.name,
      authType: draft.authType,
      baseUrl: draft.baseUrl,
      gatewayProvider: draft.gatewayProvider,
      family: draft.family,
      preset: draft.preset?.name ?? null,
      models: draft.models.map(modelToJson),
      degradation: draft.degradation,
      quota: draft.quota,
      oauthTokenUrl: draft.oauth.tokenUrl,
      oauthClientId: draft.oauth.clientId,
      oauthScope: draft.oauth.scope,
      customHeaderName: draft.customHeaderName,
      ...sealSecrets(draft.secrets, this.cipher),
      tosAcceptedAt: draft.tosAcceptedAt,
      version,
      createdAt,
      updatedAt,
    });
    return entity;
  }

  /** Compare-and-set write: a concurrent change in between answers 409 (4002) rather than being lost. */
  private async write(draft: ProviderDraft, current: ProviderRecord): Promise<void> {
    const entity = this.toEntity(draft, current.version + 1, current.createdAt, new Date());
    if (!(await this.repository.update(entity, current.version))) {
      throw new ConflictError(
        `provider "${current.name}" was changed concurrently; reload it and retry`,
        ErrorCode.VersionConflict,
      );
    }
  }

  /** Reloads the local registry, then tells dashboards and the other replicas. */
  private async changed(
    actor: ActorContext,
    eventType: EventTypeOf<typeof Channel.Providers>,
    name: string,
    extra: Pick<ProviderChangedPayload, 'reason' | 'model_count'> = {},
    secrets: string[] | null = null,
  ): Promise<void> {
    await this.registry.reload();
    this.audit.info({ actor: actor.username, provider: name, ...extra }, eventType.replace('provider.', 'providers.'));
    // The audit trail holds every change of who may spend with which credentials: a provider's
    // creation and deletion, and each change of its secrets (their names only, never a value).
    if (secrets !== null && (eventType !== 'provider.updated' || secrets.length > 0)) {
      await this.trail.record({
        actor: actor.username,
        action: eventType === 'provider.updated' ? 'provider.secret_changed' : eventType,
        target: `provider:${name}`,
        outcome: 'success',
        details: { changed_fields: secrets },
      });
    }
    await announce(this.bus, this.log, {
      channel: Channel.Providers,
      event_type: eventType,
      payload: { name, actor: actor.username, ...extra },
    });
  }
}

/** The wire name of each secret a provider can hold. */
const SECRET_WIRE_NAMES = {
  apiKey: 'api_key',
  subscriptionToken: 'subscription_token',
  oauthClientSecret: 'oauth_client_secret',
  customHeaderValue: 'custom_header_value',
} as const satisfies Record<keyof ProviderSecrets, string>;

type SecretKey = keyof typeof SECRET_WIRE_NAMES;

/** How a create or update request meets each of the provider's secrets (the shared secret-input rules). */
function secretInputs(
  request: CreateProviderDto | UpdateProviderDto,
  stored: ProviderSecrets,
): Record<SecretKey, SecretInput> {
  const dto = request as Partial<Record<string, unknown>>;
  const entries = (Object.keys(SECRET_WIRE_NAMES) as SecretKey[]).map((key) => {
    const wireName = SECRET_WIRE_NAMES[key];
    const clear = dto[`clear_${wireName}`];
    const input: SecretInput = {
      wireName,
      stored: stored[key] !== undefined,
      change: secretChange(wireName, dto[wireName], clear === true),
    };
    return [key, input] as const;
  });
  return Object.fromEntries(entries) as Record<SecretKey, SecretInput>;
}

/** The secrets a provider holds once the request's changes are applied. */
function secretsAfter(inputs: Record<SecretKey, SecretInput>, stored: ProviderSecrets): ProviderSecrets {
  const after: ProviderSecrets = {};
  for (const key of Object.keys(inputs) as SecretKey[]) {
    const value = applySecretChange(inputs[key].change, stored[key]);
    if (value !== undefined) {
      after[key] = value;
    }
  }
  return after;
}
