import { Body, Controller, Delete, Get, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PageQueryDto, PathId, RequiresSubsystems } from '@app/platform';

import {
  CreateToolServerDto,
  ToolServerDto,
  ToolServerTestResultDto,
  ToolServerToolDto,
  UpdateToolServerDto,
} from './dto/tool-server.dto';
import { ToolServersService } from './tool-servers.service';

/** Model Context Protocol servers whose tools agents may use. Only the CEO changes them: they run programs. */
@ApiTags('tools')
@ApiBearerAuth()
@Controller('tools/servers')
@RequiresSubsystems('persistence')
export class ToolServersController {
  constructor(private readonly servers: ToolServersService) {}

  @Get()
  @Endpoint({
    summary: 'Registered tool servers (secrets never included)',
    paged: ToolServerDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: PageQueryDto): Promise<Page<ToolServerDto>> {
    return this.servers.list({ offset: query.offset, limit: query.limit });
  }

  @Post()
  @Endpoint({
    summary: 'Register a tool server (stdio or Streamable HTTP); its tools are listed at once',
    response: ToolServerDto,
    status: 201,
    errors: [400, 401, 403, 409],
    permission: Permission.Administer,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateToolServerDto): Promise<ToolServerDto> {
    return this.servers.create(actor, dto);
  }

  @Get(':name')
  @Endpoint({
    summary: 'One tool server with its health here',
    response: ToolServerDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('name') name: string): Promise<ToolServerDto> {
    return this.servers.get(name);
  }

  @Put(':name')
  @Endpoint({
    summary: 'Update a tool server (omitted fields kept; a new destination needs its secrets again)',
    response: ToolServerDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  update(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() dto: UpdateToolServerDto,
  ): Promise<ToolServerDto> {
    return this.servers.update(actor, name, dto);
  }

  @Delete(':name')
  @Endpoint({
    summary: 'Remove a tool server; its process stops',
    noContent: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Administer,
  })
  delete(@Actor() actor: ActorContext, @PathId('name') name: string): Promise<void> {
    return this.servers.delete(actor, name);
  }

  @Get(':name/tools')
  @Endpoint({
    summary: 'The tools the server last listed, with schemas and action types',
    response: ToolServerToolDto,
    isArray: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  tools(@PathId('name') name: string): Promise<ToolServerToolDto[]> {
    return this.servers.tools(name);
  }

  @Post(':name/test')
  @Endpoint({
    summary: 'Connect and list the tools; reports latency, or the error and its code',
    response: ToolServerTestResultDto,
    status: 201,
    errors: [400, 401, 403, 404],
    permission: Permission.Administer,
  })
  test(@PathId('name') name: string): Promise<ToolServerTestResultDto> {
    return this.servers.test(name);
  }
}
