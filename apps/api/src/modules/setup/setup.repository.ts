import { Injectable } from '@nestjs/common';
import type { EntityManager, Repository } from 'typeorm';

import { AgentEntity, AgentLifecycleEventEntity, SettingEntity, UserEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

export const SETUP_COMPLETE = { namespace: 'api', key: 'setup_complete' } as const;
export const NAME_LOCALES = { namespace: 'company', key: 'name_locales' } as const;

type SettingRef = { namespace: string; key: string };

/** The setup wizard's own state (settings rows) and the roster reset a re-applied template needs. */
@Injectable()
export class SetupRepository {
  constructor(private readonly database: DatabaseService) {}

  private settings(manager?: EntityManager): Repository<SettingEntity> {
    return (manager ?? this.database.dataSource.manager).getRepository(SettingEntity);
  }

  async read(ref: SettingRef): Promise<string | null> {
    return (await this.settings().findOneBy(ref))?.value ?? null;
  }

  async write(ref: SettingRef, value: string, manager?: EntityManager): Promise<void> {
    await this.settings(manager).save({ ...ref, value, updatedAt: new Date() });
  }

  countUsersWithRole(role: string): Promise<number> {
    return this.database.dataSource.getRepository(UserEntity).countBy({ role });
  }

  /** Removes the roster and its career log (a template re-applied before setup completes). */
  async clearRoster(manager: EntityManager): Promise<void> {
    await manager.getRepository(AgentLifecycleEventEntity).createQueryBuilder().delete().execute();
    await manager.getRepository(AgentEntity).createQueryBuilder().delete().execute();
  }
}
