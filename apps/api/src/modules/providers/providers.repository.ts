import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { ProviderEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for model providers. */
@Injectable()
export class ProvidersRepository {
  constructor(private readonly database: DatabaseService) {}

  private get repo(): Repository<ProviderEntity> {
    return this.database.dataSource.getRepository(ProviderEntity);
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  all(): Promise<ProviderEntity[]> {
    return this.repo.find({ order: { name: 'ASC' } });
  }

  findByName(name: string): Promise<ProviderEntity | null> {
    return this.repo.findOneBy({ name });
  }
}
