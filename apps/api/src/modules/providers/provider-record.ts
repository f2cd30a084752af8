import {
  type AuthType,
  type DegradationConfig,
  findPreset,
  parseDegradationConfig,
  parseQuotaLimits,
  protocolFor,
  type ProviderModel,
  type ProviderProtocol,
  type ProviderSecrets,
  type QuotaLimits,
  resolveEndpoint,
} from '@app/domain';
import type { JsonObject, ProviderEntity } from '@app/persistence';
import type { SecretCipher } from '@app/platform';

/** A provider as the module works with it: parsed configuration and decrypted secrets (memory only). */
export interface ProviderRecord {
  name: string;
  preset: string | null;
  /** The stored routing identifier (null = falls back to the name). */
  gatewayProviderSetting: string | null;
  gatewayProvider: string;
  family: string | null;
  authType: AuthType;
  baseUrl: string | null;
  /** Where calls go: base URL, else preset default, else the identifier's known endpoint. */
  endpoint: string;
  protocol: ProviderProtocol;
  models: ProviderModel[];
  degradation: DegradationConfig;
  quota: QuotaLimits;
  secrets: ProviderSecrets;
  oauth: { tokenUrl: string | null; clientId: string | null; scope: string | null };
  customHeaderName: string | null;
  tosAcceptedAt: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Local-model operations a provider supports: its preset's flags, or the Ollama protocol's. */
export function localModelSupport(record: Pick<ProviderRecord, 'preset' | 'protocol'>): {
  pull: boolean;
  delete: boolean;
  config: boolean;
} {
  const preset = record.preset ? findPreset(record.preset) : undefined;
  if (preset) {
    return {
      pull: preset.supports_model_pull,
      delete: preset.supports_model_delete,
      config: preset.supports_model_config,
    };
  }
  const ollama = record.protocol === 'ollama';
  return { pull: ollama, delete: ollama, config: ollama };
}

/** Whether the provider runs on the operator's machine (probed in the background). */
export function isLocalProvider(record: Pick<ProviderRecord, 'preset' | 'protocol' | 'authType'>): boolean {
  const preset = record.preset ? findPreset(record.preset) : undefined;
  return preset ? preset.local : record.protocol === 'ollama' || record.authType === 'none';
}

export function modelToJson(model: ProviderModel): JsonObject {
  return {
    id: model.id,
    alias: model.alias,
    cost_per_1k_input: model.costPer1kInput,
    cost_per_1k_output: model.costPer1kOutput,
    max_context: model.maxContext,
    estimated_latency_ms: model.estimatedLatencyMs,
    local_params: model.localParams,
  };
}

const num = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

export const DEFAULT_MAX_CONTEXT = 8192;

export function modelFromJson(raw: JsonObject): ProviderModel | null {
  if (typeof raw.id !== 'string' || raw.id === '') {
    return null;
  }
  const params: unknown = raw.local_params;
  return {
    id: raw.id,
    alias: typeof raw.alias === 'string' ? raw.alias : null,
    costPer1kInput: num(raw.cost_per_1k_input, 0),
    costPer1kOutput: num(raw.cost_per_1k_output, 0),
    maxContext: num(raw.max_context, DEFAULT_MAX_CONTEXT),
    estimatedLatencyMs: typeof raw.estimated_latency_ms === 'number' ? raw.estimated_latency_ms : null,
    localParams:
      params !== null && typeof params === 'object' && !Array.isArray(params)
        ? (params as Record<string, number | null>)
        : null,
  };
}

function secretsFromEnvelope(entity: ProviderEntity, cipher: SecretCipher): ProviderSecrets {
  if (!entity.secrets) {
    return {};
  }
  const parsed = JSON.parse(cipher.open(entity.secrets)) as Record<string, unknown>;
  const secrets: ProviderSecrets = {};
  for (const key of ['apiKey', 'subscriptionToken', 'oauthClientSecret', 'customHeaderValue'] as const) {
    const value = parsed[key];
    if (typeof value === 'string' && value !== '') {
      secrets[key] = value;
    }
  }
  return secrets;
}

/** The encrypted column value of a set of secrets (null when there are none). */
export function sealSecrets(
  secrets: ProviderSecrets,
  cipher: SecretCipher,
): { secrets: string | null; secretsKeyId: string | null } {
  const present = Object.fromEntries(Object.entries(secrets).filter(([, v]) => typeof v === 'string' && v !== ''));
  if (Object.keys(present).length === 0) {
    return { secrets: null, secretsKeyId: null };
  }
  const sealed = cipher.seal(JSON.stringify(present));
  return { secrets: sealed.envelope, secretsKeyId: sealed.keyId };
}

export function toRecord(entity: ProviderEntity, cipher: SecretCipher): ProviderRecord {
  const gatewayProvider = entity.gatewayProvider ?? entity.name;
  return {
    name: entity.name,
    preset: entity.preset,
    gatewayProviderSetting: entity.gatewayProvider,
    gatewayProvider,
    family: entity.family,
    authType: entity.authType as AuthType,
    baseUrl: entity.baseUrl,
    endpoint: safeEndpoint(entity.baseUrl, entity.preset, gatewayProvider),
    protocol: protocolFor(entity.preset, gatewayProvider),
    models: entity.models.flatMap((m) => modelFromJson(m) ?? []),
    degradation: parseDegradationConfig(entity.degradation ?? {}),
    quota: parseQuotaLimits(entity.quota ?? {}),
    secrets: secretsFromEnvelope(entity, cipher),
    oauth: { tokenUrl: entity.oauthTokenUrl, clientId: entity.oauthClientId, scope: entity.oauthScope },
    customHeaderName: entity.customHeaderName,
    tosAcceptedAt: entity.tosAcceptedAt,
    version: entity.version,
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
  };
}

/** Stored rows were validated on write; an endpoint that no longer resolves reads as empty (calls then fail). */
function safeEndpoint(baseUrl: string | null, preset: string | null, gatewayProvider: string): string {
  try {
    return resolveEndpoint(baseUrl, preset, gatewayProvider);
  } catch {
    return '';
  }
}
