import { ErrorCode, ValidationError } from '../errors';
import { type AuthType, findPreset, GATEWAY_ENDPOINTS, type ProviderPreset } from './presets';

/** Lower-case letters, digits and inner hyphens, 2 to 64 characters (also a URL path segment). */
export const PROVIDER_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/;

/** Names that collide with the providers API's own sub-routes. */
export const RESERVED_PROVIDER_NAMES: readonly string[] = [
  'presets',
  'from-preset',
  'probe-preset',
  'discovery-policy',
];

export const MODEL_ID_MAX_LENGTH = 256;
export const MAX_MODELS_PER_PROVIDER = 500;

export function assertProviderName(name: string): void {
  if (!PROVIDER_NAME_PATTERN.test(name)) {
    throw new ValidationError(
      `name must be 2-64 lower-case letters, digits or inner hyphens (got ${JSON.stringify(name)})`,
      ErrorCode.ProviderNameInvalid,
    );
  }
  if (RESERVED_PROVIDER_NAMES.includes(name)) {
    throw new ValidationError(`name "${name}" is reserved`, ErrorCode.ProviderNameInvalid);
  }
}

/** The provider's credentials; only ever held decrypted in memory, never returned. */
export interface ProviderSecrets {
  apiKey?: string;
  subscriptionToken?: string;
  oauthClientSecret?: string;
  customHeaderValue?: string;
}

/** The non-secret OAuth client-credentials settings. */
export interface OAuthSettings {
  tokenUrl: string | null;
  clientId: string | null;
  scope: string | null;
}

export interface AuthShape {
  authType: AuthType;
  secrets: ProviderSecrets;
  oauth: OAuthSettings;
  customHeaderName: string | null;
  tosAcceptedAt: Date | null;
}

/** Which secrets a provider holds, as the API reports them in place of the values. */
export function secretIndicators(shape: AuthShape): {
  has_api_key: boolean;
  has_oauth_credentials: boolean;
  has_custom_header: boolean;
  has_subscription_token: boolean;
} {
  return {
    has_api_key: Boolean(shape.secrets.apiKey),
    has_oauth_credentials: Boolean(shape.oauth.tokenUrl && shape.oauth.clientId && shape.secrets.oauthClientSecret),
    has_custom_header: Boolean(shape.customHeaderName && shape.secrets.customHeaderValue),
    has_subscription_token: Boolean(shape.secrets.subscriptionToken),
  };
}

/**
 * Cross-field rules of a provider's authentication, checked on every create and update:
 * a subscription token needs accepted terms; a custom header value needs its header name;
 * a preset limits the auth types it supports.
 */
export function assertAuthConsistency(shape: AuthShape, preset: ProviderPreset | undefined): void {
  if (preset && !preset.supported_auth_types.includes(shape.authType)) {
    throw new ValidationError(
      `auth_type "${shape.authType}" is not supported by preset "${preset.name}" ` +
        `(supported: ${preset.supported_auth_types.join(', ')})`,
      ErrorCode.ProviderAuthInvalid,
    );
  }
  if (shape.secrets.subscriptionToken && !shape.tosAcceptedAt) {
    throw new ValidationError(
      'a subscription_token requires accepting the subscription terms (tos_accepted: true)',
      ErrorCode.ProviderAuthInvalid,
    );
  }
  if (shape.authType === 'subscription' && shape.secrets.apiKey) {
    throw new ValidationError(
      'auth_type "subscription" uses subscription_token, not api_key',
      ErrorCode.ProviderAuthInvalid,
    );
  }
  if (shape.secrets.customHeaderValue && !shape.customHeaderName) {
    throw new ValidationError('custom_header_value requires custom_header_name', ErrorCode.ProviderAuthInvalid);
  }
  if (shape.authType === 'custom_header' && !shape.customHeaderName) {
    throw new ValidationError('auth_type "custom_header" requires custom_header_name', ErrorCode.ProviderAuthInvalid);
  }
}

/** The key the driver sends: the subscription token stands in for the api key. */
export function effectiveApiKey(shape: Pick<AuthShape, 'authType' | 'secrets'>): string | null {
  if (shape.authType === 'subscription') {
    return shape.secrets.subscriptionToken ?? null;
  }
  if (shape.authType === 'api_key') {
    return shape.secrets.apiKey ?? null;
  }
  return null;
}

/**
 * The base URL the provider is called at: its own, else its preset's default, else the known endpoint
 * of its routing identifier. A provider with none of these is refused (it could never be called).
 */
export function resolveEndpoint(baseUrl: string | null, presetName: string | null, gatewayProvider: string): string {
  if (baseUrl) {
    return baseUrl;
  }
  const preset = presetName ? findPreset(presetName) : undefined;
  if (preset?.requires_base_url && !preset.default_base_url) {
    throw new ValidationError(`preset "${preset.name}" requires base_url`, ErrorCode.ProviderEndpointRequired);
  }
  const endpoint = preset?.default_base_url ?? GATEWAY_ENDPOINTS[gatewayProvider];
  if (!endpoint) {
    throw new ValidationError(
      `base_url is required: "${gatewayProvider}" is not a provider with a known endpoint ` +
        `(known: ${Object.keys(GATEWAY_ENDPOINTS).join(', ')})`,
      ErrorCode.ProviderEndpointRequired,
    );
  }
  return endpoint;
}

/** A model a provider offers (domain shape). */
export interface ProviderModel {
  id: string;
  alias: string | null;
  costPer1kInput: number;
  costPer1kOutput: number;
  maxContext: number;
  estimatedLatencyMs: number | null;
  localParams: Record<string, number | null> | null;
}

/** Every id and alias of one provider must be unique across both, so a reference means one model. */
export function assertUniqueModelRefs(models: readonly Pick<ProviderModel, 'id' | 'alias'>[]): void {
  if (models.length > MAX_MODELS_PER_PROVIDER) {
    throw new ValidationError(`models: at most ${MAX_MODELS_PER_PROVIDER} entries`, ErrorCode.ProviderModelsInvalid);
  }
  const seen = new Set<string>();
  for (const m of models) {
    for (const ref of m.alias && m.alias !== m.id ? [m.id, m.alias] : [m.id]) {
      if (seen.has(ref)) {
        throw new ValidationError(
          `models: "${ref}" is used by more than one model id or alias`,
          ErrorCode.ProviderModelsInvalid,
        );
      }
      seen.add(ref);
    }
  }
}
