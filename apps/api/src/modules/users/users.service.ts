import { randomUUID } from 'node:crypto';

import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  ConflictError,
  ErrorCode,
  HumanRole,
  nameKey,
  NotFoundError,
  Page,
  type PageRequest,
  passwordProblem,
  SYSTEM_USER_ID,
  SYSTEM_USERNAME,
  ValidationError,
} from '@app/domain';
import { type ActorContext, DatabaseService, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AuditTrail } from '../audit';
import type { CreateUserDto, UpdateUserRoleDto, UserResponseDto } from './dto/user.dto';
import { PasswordHasher } from './password-hasher';
import { SessionsService } from './sessions.service';
import { toUserResponse, toUserResponseFromRow } from './users.mapper';
import { UsersRepository } from './users.repository';

/** Account administration (CEO only): create, list, get, change role, delete. */
@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly audit: Logger;

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly database: DatabaseService,
    private readonly trail: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.audit = logging.forName('security.audit');
  }

  /** The reserved CLI identity exists in every installation (idempotent across replicas). */
  async onApplicationBootstrap(): Promise<void> {
    if (this.database.state !== 'ready') {
      return;
    }
    const now = new Date();
    await this.users.insertIfAbsent({
      id: SYSTEM_USER_ID,
      username: SYSTEM_USERNAME,
      passwordHash: await this.hasher.unusableHash(),
      role: HumanRole.System,
      mustChangePassword: false,
      department: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  async create(actor: ActorContext, dto: CreateUserDto): Promise<UserResponseDto> {
    const username = dto.username.trim();
    if (username.length === 0) {
      throw new ValidationError('username: must not be blank', ErrorCode.RequestValidationError);
    }
    if (username.toLowerCase() === SYSTEM_USERNAME) {
      throw new ConflictError(`The username "${SYSTEM_USERNAME}" is reserved`, ErrorCode.DuplicateRecord);
    }
    const problem = passwordProblem(dto.password);
    if (problem) {
      throw new ValidationError(`password: ${problem}`, ErrorCode.RequestValidationError);
    }
    if (await this.users.findByUsername(username)) {
      throw new ConflictError(`A user named "${username}" already exists`, ErrorCode.DuplicateRecord);
    }
    const now = new Date();
    const user = {
      id: randomUUID(),
      username,
      passwordHash: await this.hasher.hash(dto.password),
      role: dto.role,
      mustChangePassword: true,
      department: dto.department ? nameKey(dto.department) : null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.users.insert(user);
    } catch (error) {
      // A concurrent create of the same name lost the race on the unique index.
      if (await this.users.findByUsername(username)) {
        throw new ConflictError(`A user named "${username}" already exists`, ErrorCode.DuplicateRecord);
      }
      throw error;
    }
    this.audit.info(
      { actor: actor.username, actor_id: actor.userId, user_id: user.id, username, role: user.role },
      'hr.user.created',
    );
    await this.trail.record({
      actor: actor.username,
      action: 'user.created',
      target: `user:${user.id}`,
      outcome: 'success',
      details: { username, role: user.role, department: user.department },
    });
    return toUserResponse(user);
  }

  async list(request: PageRequest): Promise<Page<UserResponseDto>> {
    const { items, total } = await this.users.page(request);
    return new Page(items.map(toUserResponseFromRow), total, request.offset, request.limit);
  }

  async get(id: string): Promise<UserResponseDto> {
    return toUserResponse(await this.findOrThrow(id));
  }

  async updateRole(actor: ActorContext, id: string, dto: UpdateUserRoleDto): Promise<UserResponseDto> {
    const user = await this.findOrThrow(id);
    this.assertMutable(user.role);
    if (
      user.role === HumanRole.Ceo &&
      dto.role !== HumanRole.Ceo &&
      (await this.users.countByRole(HumanRole.Ceo)) <= 1
    ) {
      throw new ConflictError('The last CEO cannot be demoted', ErrorCode.LastCeoRequired);
    }
    const department = dto.department === undefined ? user.department : dto.department && nameKey(dto.department);
    if (user.role !== dto.role || department !== user.department) {
      await this.users.update(id, { role: dto.role, department });
      // Role changes apply at once: cached sessions of that user are evicted on every replica.
      this.sessions.evict([], id);
      this.audit.info(
        {
          actor: actor.username,
          actor_id: actor.userId,
          user_id: id,
          username: user.username,
          from_role: user.role,
          to_role: dto.role,
          department,
        },
        'hr.user.role_changed',
      );
      await this.trail.record({
        actor: actor.username,
        action: 'user.role_changed',
        target: `user:${id}`,
        outcome: 'success',
        details: { username: user.username, from_role: user.role, to_role: dto.role, department },
      });
    }
    return toUserResponse({ ...user, role: dto.role, department, updatedAt: new Date() });
  }

  async delete(actor: ActorContext, id: string): Promise<void> {
    const user = await this.findOrThrow(id);
    this.assertMutable(user.role);
    if (user.id === actor.userId) {
      throw new ConflictError('You cannot delete your own account', ErrorCode.SelfDeletionRefused);
    }
    if (user.role === HumanRole.Ceo && (await this.users.countByRole(HumanRole.Ceo)) <= 1) {
      throw new ConflictError('The last CEO cannot be deleted', ErrorCode.LastCeoRequired);
    }
    await this.sessions.revoke({ userId: id }, actor, 'user_deleted');
    await this.users.delete(id);
    this.audit.info(
      { actor: actor.username, actor_id: actor.userId, user_id: id, username: user.username },
      'hr.user.deleted',
    );
    await this.trail.record({
      actor: actor.username,
      action: 'user.deleted',
      target: `user:${id}`,
      outcome: 'success',
      details: { username: user.username, role: user.role },
    });
  }

  private async findOrThrow(id: string) {
    const user = await this.users.findById(id);
    if (!user) {
      throw new NotFoundError(`User ${id} not found`, ErrorCode.UserNotFound);
    }
    return user;
  }

  private assertMutable(role: string): void {
    if (role === HumanRole.System) {
      throw new ConflictError('The system identity cannot be modified or deleted', ErrorCode.SystemIdentityImmutable);
    }
  }
}
