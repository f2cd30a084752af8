import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PageQueryDto, PathId, RequiresSubsystems } from '@app/platform';

import { CreateUserDto, UpdateUserRoleDto, UserResponseDto } from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
@RequiresSubsystems('persistence')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @Endpoint({
    summary: 'Create a human account (starts with must_change_password)',
    response: UserResponseDto,
    status: 201,
    errors: [400, 401, 403, 409],
    permission: Permission.Administer,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateUserDto): Promise<UserResponseDto> {
    return this.users.create(actor, dto);
  }

  @Get()
  @Endpoint({
    summary: 'List accounts',
    paged: UserResponseDto,
    errors: [400, 401, 403],
    permission: Permission.Administer,
  })
  list(@Query() page: PageQueryDto): Promise<Page<UserResponseDto>> {
    return this.users.list(page);
  }

  @Get(':user_id')
  @Endpoint({
    summary: 'One account',
    response: UserResponseDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Administer,
  })
  get(@PathId('user_id') id: string): Promise<UserResponseDto> {
    return this.users.get(id);
  }

  @Patch(':user_id')
  @Endpoint({
    summary: "Change an account's role",
    response: UserResponseDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  updateRole(
    @Actor() actor: ActorContext,
    @PathId('user_id') id: string,
    @Body() dto: UpdateUserRoleDto,
  ): Promise<UserResponseDto> {
    return this.users.updateRole(actor, id, dto);
  }

  @Delete(':user_id')
  @Endpoint({
    summary: 'Delete an account (its sessions are revoked)',
    noContent: true,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  delete(@Actor() actor: ActorContext, @PathId('user_id') id: string): Promise<void> {
    return this.users.delete(actor, id);
  }
}
