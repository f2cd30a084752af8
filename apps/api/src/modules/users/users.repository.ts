import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { type PageRequest } from '@app/domain';
import { pagedQuery, UserEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

import { USER_ROW_COLUMNS, type UserRow } from './users.mapper';

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

  /** One page of users as raw rows of the response's columns (never the password hash), oldest first. */
  async page(request: PageRequest): Promise<{ items: UserRow[]; total: number }> {
    const { rows, total } = await pagedQuery<UserRow>({
      source: this.database.dataSource,
      table: 'users',
      columns: USER_ROW_COLUMNS,
      orderBy: ['created_at ASC', 'username ASC'],
      offset: request.offset,
      limit: request.limit,
    });
    return { items: rows, total };
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
