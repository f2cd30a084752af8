import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiEnvelope,
  ApiErrors,
  ApiNoContent,
  ApiPaged,
  PageQueryDto,
  PathId,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { CreateUserDto, UpdateUserRoleDto, UserResponseDto } from './dto/user.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
@RequiresSubsystems('persistence')
@RequirePermission(Permission.Administer)
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @ApiOperation({ summary: 'Create a human account (starts with must_change_password)' })
  @ApiEnvelope(UserResponseDto, { status: 201 })
  @ApiErrors(400, 401, 403, 409)
  create(@Actor() actor: ActorContext, @Body() dto: CreateUserDto): Promise<UserResponseDto> {
    return this.users.create(actor, dto);
  }

  @Get()
  @ApiOperation({ summary: 'List accounts' })
  @ApiPaged(UserResponseDto)
  @ApiErrors(400, 401, 403)
  list(@Query() page: PageQueryDto): Promise<Page<UserResponseDto>> {
    return this.users.list(page);
  }

  @Get(':user_id')
  @ApiOperation({ summary: 'One account' })
  @ApiEnvelope(UserResponseDto)
  @ApiErrors(400, 401, 403, 404)
  get(@PathId('user_id') id: string): Promise<UserResponseDto> {
    return this.users.get(id);
  }

  @Patch(':user_id')
  @ApiOperation({ summary: "Change an account's role" })
  @ApiEnvelope(UserResponseDto)
  @ApiErrors(400, 401, 403, 404, 409)
  updateRole(
    @Actor() actor: ActorContext,
    @PathId('user_id') id: string,
    @Body() dto: UpdateUserRoleDto,
  ): Promise<UserResponseDto> {
    return this.users.updateRole(actor, id, dto);
  }

  @Delete(':user_id')
  @ApiOperation({ summary: 'Delete an account (its sessions are revoked)' })
  @ApiNoContent()
  @ApiErrors(400, 401, 403, 404, 409)
  delete(@Actor() actor: ActorContext, @PathId('user_id') id: string): Promise<void> {
    return this.users.delete(actor, id);
  }
}
