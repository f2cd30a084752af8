/**
 * The built-in provider presets: ready-made starting points for the common model providers.
 * Exactly eleven ship with this interface version; the table is data, the API lists it as is.
 */

/** Wire protocol a provider speaks; chooses the driver. */
export const PROVIDER_PROTOCOLS = ['openai_compatible', 'anthropic', 'ollama'] as const;
export type ProviderProtocol = (typeof PROVIDER_PROTOCOLS)[number];

export const AUTH_TYPES = ['api_key', 'oauth', 'custom_header', 'subscription', 'none'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/** A model entry as presets and provider configurations carry it (wire shape). */
export interface PresetModel {
  id: string;
  alias: string | null;
  cost_per_1k_input: number;
  cost_per_1k_output: number;
  max_context: number;
  estimated_latency_ms: number | null;
}

export interface ProviderPreset {
  name: string;
  display_name: string;
  description: string;
  /** The driver family: which wire protocol the provider speaks. */
  driver: ProviderProtocol;
  /** Routing identifier providers created from this preset get by default. */
  gateway_provider: string;
  auth_type: AuthType;
  supported_auth_types: AuthType[];
  /** The URL the preset suggests (local servers); null where the driver's own endpoint applies. */
  default_base_url: string | null;
  requires_base_url: boolean;
  /** Probed in this order by probe-preset; all use http://. */
  candidate_urls: string[];
  default_models: PresetModel[];
  supports_model_pull: boolean;
  supports_model_delete: boolean;
  supports_model_config: boolean;
  /** Whether the provider runs on the operator's own machine (health prober, discovery trust). */
  local: boolean;
}

const model = (id: string, alias: string, input: number, output: number, maxContext: number): PresetModel => ({
  id,
  alias,
  cost_per_1k_input: input,
  cost_per_1k_output: output,
  max_context: maxContext,
  estimated_latency_ms: null,
});

const GPT_41_CONTEXT = 1_047_576;
const GEMINI_CONTEXT = 1_048_576;

function cloud(
  name: string,
  displayName: string,
  description: string,
  extra: Partial<ProviderPreset> = {},
): ProviderPreset {
  return {
    name,
    display_name: displayName,
    description,
    driver: 'openai_compatible',
    gateway_provider: name,
    auth_type: 'api_key',
    supported_auth_types: ['api_key'],
    default_base_url: null,
    requires_base_url: false,
    candidate_urls: [],
    default_models: [],
    supports_model_pull: false,
    supports_model_delete: false,
    supports_model_config: false,
    local: false,
    ...extra,
  };
}

function local(
  name: string,
  displayName: string,
  description: string,
  defaultBaseUrl: string,
  candidates: string[],
  extra: Partial<ProviderPreset> = {},
): ProviderPreset {
  return cloud(name, displayName, description, {
    gateway_provider: 'openai',
    auth_type: 'none',
    supported_auth_types: ['none'],
    default_base_url: defaultBaseUrl,
    requires_base_url: true,
    candidate_urls: candidates,
    local: true,
    ...extra,
  });
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = Object.freeze([
  cloud('anthropic', 'Anthropic', 'Claude models through the Anthropic Messages API.', {
    driver: 'anthropic',
    supported_auth_types: ['api_key', 'subscription'],
    default_models: [
      model('claude-sonnet-4-6-20250514', 'sonnet', 0.003, 0.015, 200_000),
      model('claude-haiku-4-5-20251001', 'haiku', 0.0008, 0.004, 200_000),
    ],
  }),
  cloud('azure', 'Azure OpenAI', 'OpenAI models hosted in your own Azure deployment.', { requires_base_url: true }),
  cloud('deepseek', 'DeepSeek', 'DeepSeek chat and reasoning models (OpenAI-compatible API).'),
  cloud('gemini', 'Google AI Studio', 'Gemini models through the OpenAI-compatible Google AI Studio endpoint.', {
    default_models: [
      model('gemini-2.5-pro', 'gemini-pro', 0.00125, 0.01, GEMINI_CONTEXT),
      model('gemini-2.5-flash', 'gemini-flash', 0.00015, 0.0006, GEMINI_CONTEXT),
    ],
  }),
  cloud('groq', 'Groq', 'Open-weight models served on Groq hardware (OpenAI-compatible API).'),
  cloud('mistral', 'Mistral AI', 'Mistral models through La Plateforme (OpenAI-compatible API).'),
  cloud('openai', 'OpenAI', 'GPT and o-series models through the OpenAI API.', {
    default_models: [
      model('gpt-4.1', 'gpt4', 0.002, 0.008, GPT_41_CONTEXT),
      model('gpt-4.1-mini', 'gpt4-mini', 0.0004, 0.0016, GPT_41_CONTEXT),
      model('o3', 'o3', 0.002, 0.008, 200_000),
    ],
  }),
  local(
    'lm-studio',
    'LM Studio',
    'Models served by LM Studio on your machine (OpenAI-compatible API, no key).',
    'http://localhost:1234/v1',
    ['http://host.docker.internal:1234/v1', 'http://172.17.0.1:1234/v1', 'http://localhost:1234/v1'],
  ),
  local(
    'ollama',
    'Ollama',
    'Models served by Ollama on your machine; supports pulling, deleting and tuning local models.',
    'http://localhost:11434',
    ['http://host.docker.internal:11434', 'http://172.17.0.1:11434', 'http://localhost:11434'],
    {
      driver: 'ollama',
      gateway_provider: 'ollama',
      supports_model_pull: true,
      supports_model_delete: true,
      supports_model_config: true,
    },
  ),
  // Port 8000 is also this service's default port, so vLLM is never probed automatically.
  local(
    'vllm',
    'vLLM',
    'Models served by a vLLM server (OpenAI-compatible API, no key).',
    'http://localhost:8000/v1',
    [],
  ),
  cloud('openrouter', 'OpenRouter', 'Hundreds of models from many vendors through one OpenRouter key.', {
    default_base_url: 'https://openrouter.ai/api/v1',
  }),
]);

export function findPreset(name: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.name === name);
}

/**
 * The endpoint a driver calls when the provider has no base URL of its own, by routing identifier.
 * Identifiers not listed here need a base URL.
 */
export const GATEWAY_ENDPOINTS: Readonly<Record<string, string>> = Object.freeze({
  anthropic: 'https://api.anthropic.com',
  deepseek: 'https://api.deepseek.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/openai',
  groq: 'https://api.groq.com/openai/v1',
  mistral: 'https://api.mistral.ai/v1',
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
});

/** Which protocol a provider speaks, from its preset, else its routing identifier. */
export function protocolFor(preset: string | null, gatewayProvider: string): ProviderProtocol {
  const fromPreset = preset ? findPreset(preset)?.driver : undefined;
  if (fromPreset) {
    return fromPreset;
  }
  if (gatewayProvider === 'anthropic') {
    return 'anthropic';
  }
  if (gatewayProvider === 'ollama') {
    return 'ollama';
  }
  return 'openai_compatible';
}
