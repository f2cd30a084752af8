import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { type PageRequest } from '@app/domain';
import { UserEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for accounts. */
@Injectable()
export class UsersRepository {
  constructor(private readonly database: DatabaseService) {}

  private get repo(): Repository<UserEntity> {
    return this.database.dataSource.getRepository(UserEntity);
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ username });
  }

  findFirstByRole(role: string): Promise<UserEntity | null> {
    return this.repo.findOne({ where: { role }, order: { createdAt: 'ASC' } });
  }

  countByRole(role: string): Promise<number> {
    return this.repo.countBy({ role });
  }

  async page(request: PageRequest): Promise<{ items: UserEntity[]; total: number }> {
    const [items, total] = await this.repo.findAndCount({
      order: { createdAt: 'ASC', username: 'ASC' },
      skip: request.offset,
      take: request.limit,
    });
    return { items, total };
  }

  async insert(user: UserEntity): Promise<void> {
    await this.repo.insert(user);
  }

  async update(
    id: string,
    changes: Partial<Pick<UserEntity, 'role' | 'passwordHash' | 'mustChangePassword' | 'department'>>,
  ): Promise<void> {
    await this.repo.update({ id }, { ...changes, updatedAt: new Date() });
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  /** Creates the row only when absent (idempotent across replicas starting together). */
  async insertIfAbsent(user: UserEntity): Promise<void> {
    await this.repo.createQueryBuilder().insert().into(UserEntity).values(user).orIgnore().execute();
  }
}
