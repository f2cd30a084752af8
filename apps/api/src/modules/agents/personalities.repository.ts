import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { type JsonObject, PersonalityPresetEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for custom personality presets. */
@Injectable()
export class PersonalitiesRepository {
  constructor(private readonly database: DatabaseService) {}

  private get repo(): Repository<PersonalityPresetEntity> {
    return this.database.dataSource.getRepository(PersonalityPresetEntity);
  }

  all(): Promise<PersonalityPresetEntity[]> {
    return this.repo.find({ order: { name: 'ASC' } });
  }

  find(name: string): Promise<PersonalityPresetEntity | null> {
    return this.repo.findOneBy({ name });
  }

  async insert(row: PersonalityPresetEntity): Promise<void> {
    await this.repo.insert(row);
  }

  async update(name: string, personality: JsonObject): Promise<Date> {
    const updatedAt = new Date();
    await this.repo.update({ name }, { personality, updatedAt });
    return updatedAt;
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.repo.delete({ name });
    return (result.affected ?? 0) > 0;
  }
}
