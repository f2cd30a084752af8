import { SENSITIVE_MASK, type SettingDefinition, type SettingSource } from '@app/domain';

import type { SettingDefinitionDto, SettingEntryDto } from './dto/setting.dto';

/** A definition on the wire. */
export function toDefinitionDto(d: SettingDefinition): SettingDefinitionDto {
  return {
    namespace: d.namespace,
    key: d.key,
    type: d.type,
    default: d.default,
    description: d.description,
    group: d.group,
    level: d.level,
    sensitive: d.sensitive,
    restart_required: d.restartRequired,
    enum_values: [...d.enumValues],
    validator_pattern: d.pattern,
    min_value: d.min,
    max_value: d.max,
    yaml_path: d.yamlPath,
  };
}

/** A resolved setting as the service computes it (plain text: never leaves the module unmasked). */
export interface ResolvedEntry {
  definition: SettingDefinition;
  text: string | null;
  source: SettingSource;
  updatedAt: Date | null;
  pendingRestart: boolean;
  etag: string;
}

/** An entry on the wire: a sensitive value that is set shows only the mask. */
export function toEntryDto(entry: ResolvedEntry): SettingEntryDto {
  const text = entry.text ?? '';
  return {
    definition: toDefinitionDto(entry.definition),
    value: entry.definition.sensitive && text !== '' ? SENSITIVE_MASK : text,
    source: entry.source,
    updated_at: entry.updatedAt ? entry.updatedAt.toISOString() : null,
    pending_restart: entry.pendingRestart,
  };
}
