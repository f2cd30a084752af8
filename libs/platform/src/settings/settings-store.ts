import { Injectable } from '@nestjs/common';

import { SettingEntity } from '@app/persistence';

import { DatabaseService } from '../persistence/database.service';
import type { Transaction } from '../persistence/transaction';

/** A typed setting: where it is stored (namespace + key) and how its value maps to the text column. */
export interface SettingKey<T> {
  readonly namespace: string;
  readonly key: string;
  readonly encode: (value: T) => string;
  /** May throw on a value it cannot read; the store reports that as an UnreadableSettingError. */
  readonly decode: (raw: string) => T;
}

/** A setting stored as plain text. */
export function textSetting(namespace: string, key: string): SettingKey<string> {
  return { namespace, key, encode: (value) => value, decode: (raw) => raw };
}

/** A flag stored as the text `true` (anything else reads as false). */
export function flagSetting(namespace: string, key: string): SettingKey<boolean> {
  return { namespace, key, encode: (value) => String(value), decode: (raw) => raw === 'true' };
}

/** A setting stored as JSON; `read` checks and normalises the parsed value (and throws when it is not valid). */
export function jsonSetting<T>(namespace: string, key: string, read: (parsed: unknown) => T): SettingKey<T> {
  return { namespace, key, encode: (value) => JSON.stringify(value), decode: (raw) => read(JSON.parse(raw)) };
}

/** A stored setting whose text its key cannot decode; `raw` is the stored text. */
export class UnreadableSettingError extends Error {
  constructor(
    readonly namespace: string,
    readonly key: string,
    readonly raw: string,
    options: { cause: unknown },
  ) {
    super(`Setting ${namespace}.${key} cannot be read`, options);
  }
}

/**
 * What the runtime settings registry puts under the store: resolved reads (database, environment,
 * YAML, default) and validated, encrypted, announced writes.
 */
export interface SettingsBackend {
  /** The resolved text of a declared setting, or null when no tier gives it a value. */
  read(namespace: string, key: string): Promise<string | null>;
  /** Whether the setting has a stored (database) value. */
  exists(namespace: string, key: string): Promise<boolean>;
  /** Validates, stores and announces a value. */
  write(namespace: string, key: string, text: string): Promise<void>;
}

/**
 * Typed reads and writes of settings, by namespace and key. With the settings registry attached
 * (the application), reads resolve through every tier and writes are validated and announced; a
 * store without it, and any call inside a caller's transaction, works on the `settings` rows alone.
 */
@Injectable()
export class SettingsStore {
  private backend: SettingsBackend | null = null;

  constructor(private readonly database: DatabaseService) {}

  /** Puts the registry underneath (once, at startup). */
  attach(backend: SettingsBackend): void {
    this.backend = backend;
  }

  /** The value (stored, else from the lower tiers when the registry is attached), or null when unset. */
  async get<T>(setting: SettingKey<T>, tx?: Transaction): Promise<T | null> {
    if (this.backend && !tx) {
      return this.decode(setting, await this.backend.read(setting.namespace, setting.key));
    }
    const row = await this.database
      .manager(tx)
      .getRepository(SettingEntity)
      .findOneBy({ namespace: setting.namespace, key: setting.key });
    return this.decode(setting, row ? row.value : null);
  }

  /** Whether the setting was ever written (without reading its value). */
  async has<T>(setting: SettingKey<T>, tx?: Transaction): Promise<boolean> {
    if (this.backend && !tx) {
      return this.backend.exists(setting.namespace, setting.key);
    }
    const count = await this.database
      .manager(tx)
      .getRepository(SettingEntity)
      .countBy({ namespace: setting.namespace, key: setting.key });
    return count > 0;
  }

  async set<T>(setting: SettingKey<T>, value: T, tx?: Transaction): Promise<void> {
    if (this.backend && !tx) {
      return this.backend.write(setting.namespace, setting.key, setting.encode(value));
    }
    await this.database
      .manager(tx)
      .getRepository(SettingEntity)
      .upsert({ namespace: setting.namespace, key: setting.key, value: setting.encode(value), updatedAt: new Date() }, [
        'namespace',
        'key',
      ]);
  }

  private decode<T>(setting: SettingKey<T>, raw: string | null): T | null {
    if (raw === null) {
      return null;
    }
    try {
      return setting.decode(raw);
    } catch (error) {
      throw new UnreadableSettingError(setting.namespace, setting.key, raw, { cause: error });
    }
  }
}
