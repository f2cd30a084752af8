import {
  degradationToJson,
  type PresetModel,
  type ProviderPreset,
  quotaLimitsToJson,
  secretIndicators,
} from '@app/domain';

import type { PresetDto } from './dto/preset.dto';
import type { ModelEntryResponseDto } from './dto/model.dto';
import type { ProviderDto } from './dto/provider.dto';
import { localModelSupport, modelToJson, type ProviderRecord } from './provider-record';

export function toModelEntryDto(model: ProviderRecord['models'][number]): ModelEntryResponseDto {
  return modelToJson(model) as unknown as ModelEntryResponseDto;
}

export function toProviderDto(record: ProviderRecord): ProviderDto {
  const support = localModelSupport(record);
  const degradation = degradationToJson(record.degradation);
  return {
    name: record.name,
    driver: record.protocol,
    gateway_provider: record.gatewayProviderSetting,
    family: record.family,
    auth_type: record.authType,
    base_url: record.baseUrl,
    models: record.models.map(toModelEntryDto),
    degradation: {
      strategy: degradation.strategy,
      fallback_providers: degradation.fallback_providers,
      queue_max_wait_seconds: degradation.queue_max_wait_seconds,
    },
    quota: { ...quotaLimitsToJson(record.quota) },
    ...secretIndicators(record),
    tos_accepted_at: record.tosAcceptedAt?.toISOString() ?? null,
    oauth_token_url: record.oauth.tokenUrl,
    oauth_client_id: record.oauth.clientId,
    oauth_scope: record.oauth.scope,
    custom_header_name: record.customHeaderName,
    preset_name: record.preset,
    supports_model_pull: support.pull,
    supports_model_delete: support.delete,
    supports_model_config: support.config,
    version: record.version,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

function presetModel(model: PresetModel): ModelEntryResponseDto {
  return { ...model, local_params: null };
}

export function toPresetDto(preset: ProviderPreset): PresetDto {
  return {
    name: preset.name,
    display_name: preset.display_name,
    description: preset.description,
    driver: preset.driver,
    gateway_provider: preset.gateway_provider,
    auth_type: preset.auth_type,
    supported_auth_types: [...preset.supported_auth_types],
    default_base_url: preset.default_base_url,
    requires_base_url: preset.requires_base_url,
    candidate_urls: [...preset.candidate_urls],
    default_models: preset.default_models.map(presetModel),
    supports_model_pull: preset.supports_model_pull,
    supports_model_delete: preset.supports_model_delete,
    supports_model_config: preset.supports_model_config,
  };
}
