import { Injectable } from '@nestjs/common';

import type { HumanRole } from '@app/domain';

import { UsersRepository } from './users.repository';

/** The users module's face for other modules: read-only facts about the human accounts. */
@Injectable()
export class UserDirectory {
  constructor(private readonly users: UsersRepository) {}

  countWithRole(role: HumanRole): Promise<number> {
    return this.users.countByRole(role);
  }
}
