import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  ErrorCode,
  parseSettingValue,
  type SettingDefinition,
  validateSettingValue,
  ValidationError,
} from '@app/domain';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import type { SecurityConfigExportDto } from './dto/security-config.dto';
import { SettingsService } from './settings.service';
import { SettingsSnapshot } from './settings-snapshot';

const NAMESPACE = 'security';

/**
 * The security namespace as one document: exported with typed values, imported as a whole (every
 * value is checked before the first is stored, so a bad document changes nothing).
 */
@Injectable()
export class SecurityConfigService {
  private readonly log: Logger;

  constructor(
    private readonly settings: SettingsService,
    private readonly snapshot: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security');
  }

  async export(): Promise<SecurityConfigExportDto> {
    const entries = await this.settings.listNamespace(NAMESPACE);
    const config: Record<string, unknown> = {};
    for (const entry of entries) {
      const definition = this.snapshot.definitions.get(NAMESPACE, entry.definition.key);
      // Sensitive values are masked in entries and stay so here.
      config[entry.definition.key] = definition.sensitive
        ? entry.value
        : parseSettingValue(definition, entry.value === '' ? null : entry.value);
    }
    return { config, exported_at: new Date().toISOString(), custom_policies_warning: null };
  }

  /** @throws ValidationError 2046 (no, unknown or null key) or 2040–2044 (a value breaks its setting's rules), naming the field. */
  async import(actor: ActorContext, config: Record<string, unknown>): Promise<SecurityConfigExportDto> {
    const keys = Object.keys(config);
    if (keys.length === 0) {
      throw new ValidationError('config names no security setting', ErrorCode.SecurityImportInvalid);
    }
    const checked = keys.map((key) => {
      const definition = this.definition(key);
      const text = settingText(key, config[key]);
      try {
        return { definition, text: validateSettingValue(definition, text) };
      } catch (error) {
        if (error instanceof ValidationError) {
          throw new ValidationError(`config.${key}: ${error.message}`, error.code);
        }
        throw error;
      }
    });
    for (const { definition, text } of checked) {
      await this.settings.put(actor, NAMESPACE, definition.key, text);
    }
    this.log.info({ actor: actor.username, keys }, 'security.config.imported');
    return this.export();
  }

  private definition(key: string): SettingDefinition {
    const definition = this.snapshot.definitions.find(NAMESPACE, key);
    if (!definition) {
      const known = this.snapshot.definitions.namespace(NAMESPACE).map((d) => d.key);
      throw new ValidationError(
        `config.${key}: not a security setting (known: ${known.join(', ')})`,
        ErrorCode.SecurityImportInvalid,
      );
    }
    return definition;
  }
}

/** A document value as setting text: scalars as written, objects and arrays as JSON. */
function settingText(key: string, value: unknown): string {
  if (value === null || value === undefined) {
    throw new ValidationError(`config.${key}: a value is required, not null`, ErrorCode.SecurityImportInvalid);
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value);
}
