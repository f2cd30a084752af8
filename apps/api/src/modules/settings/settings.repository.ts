import { Injectable } from '@nestjs/common';

import { SettingEntity } from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

/** A stored setting row as the module reads it (the value as stored: sensitive ones sealed). */
export interface StoredSetting {
  namespace: string;
  key: string;
  value: string;
  updatedAt: Date;
}

/** The `settings` table: the only TypeORM user of it. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly database: DatabaseService) {}

  async all(tx?: Transaction): Promise<StoredSetting[]> {
    return this.database.manager(tx).getRepository(SettingEntity).find();
  }

  async inNamespace(namespace: string, tx?: Transaction): Promise<StoredSetting[]> {
    return this.database.manager(tx).getRepository(SettingEntity).findBy({ namespace });
  }

  async find(namespace: string, key: string, tx?: Transaction): Promise<StoredSetting | null> {
    return this.database.manager(tx).getRepository(SettingEntity).findOneBy({ namespace, key });
  }

  async upsert(namespace: string, key: string, value: string, tx?: Transaction): Promise<StoredSetting> {
    const row = { namespace, key, value, updatedAt: new Date() };
    await this.database.manager(tx).getRepository(SettingEntity).upsert(row, ['namespace', 'key']);
    return row;
  }

  /** Whether a row was removed. */
  async remove(namespace: string, key: string, tx?: Transaction): Promise<boolean> {
    const result = await this.database.manager(tx).getRepository(SettingEntity).delete({ namespace, key });
    return (result.affected ?? 0) > 0;
  }
}
