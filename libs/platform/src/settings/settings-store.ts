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
 * Typed reads and writes of the `settings` rows, by namespace and key: the one way modules keep a
 * small piece of state there. A settings registry can replace what sits underneath, keeping callers.
 */
@Injectable()
export class SettingsStore {
  constructor(private readonly database: DatabaseService) {}

  /** The stored value, or null when the setting was never written. */
  async get<T>(setting: SettingKey<T>, tx?: Transaction): Promise<T | null> {
    const row = await this.database
      .manager(tx)
      .getRepository(SettingEntity)
      .findOneBy({ namespace: setting.namespace, key: setting.key });
    if (!row) {
      return null;
    }
    try {
      return setting.decode(row.value);
    } catch (error) {
      throw new UnreadableSettingError(setting.namespace, setting.key, row.value, { cause: error });
    }
  }

  /** Whether the setting was ever written (without reading its value). */
  async has<T>(setting: SettingKey<T>, tx?: Transaction): Promise<boolean> {
    const count = await this.database
      .manager(tx)
      .getRepository(SettingEntity)
      .countBy({ namespace: setting.namespace, key: setting.key });
    return count > 0;
  }

  async set<T>(setting: SettingKey<T>, value: T, tx?: Transaction): Promise<void> {
    await this.database
      .manager(tx)
      .getRepository(SettingEntity)
      .upsert({ namespace: setting.namespace, key: setting.key, value: setting.encode(value), updatedAt: new Date() }, [
        'namespace',
        'key',
      ]);
  }
}
