import { Body, Controller, Delete, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import {
  CreateOrgFactDto,
  MemoryEntryDto,
  MemoryQueryDto,
  MemorySearchDto,
  MemoryStatusDto,
  OrgFactDto,
  OrgFactQueryDto,
} from './dto/memory.dto';
import { MemoryApi } from './memory.api';

/** Agent memory: the backend's status, organisation facts, an agent's entries (list, search, delete). */
@ApiTags('memory')
@ApiBearerAuth()
@Controller()
@RequiresSubsystems('persistence')
export class MemoryController {
  constructor(private readonly memory: MemoryApi) {}

  @Get('memory/status')
  @Endpoint({
    summary: 'Whether a memory backend is wired (or why not), the embedder and the entry counts',
    response: MemoryStatusDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  status(): Promise<MemoryStatusDto> {
    return this.memory.status();
  }

  @Get('memory/org')
  @Endpoint({
    summary: 'Organisation facts, newest first',
    paged: OrgFactDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  listFacts(@Query() query: OrgFactQueryDto): Promise<Page<OrgFactDto>> {
    return this.memory.listFacts(query);
  }

  @Post('memory/org')
  @Endpoint({
    summary: "Record an organisation fact (a manager's: their department's)",
    response: OrgFactDto,
    status: 201,
    errors: [400, 401, 403, 503],
    permission: Permission.Manage,
  })
  createFact(@Actor() actor: ActorContext, @Body() dto: CreateOrgFactDto): Promise<OrgFactDto> {
    return this.memory.createFact(actor, dto);
  }

  @Delete('memory/org/:fact_id')
  @Endpoint({
    summary: "Delete an organisation fact (a manager: their department's)",
    noContent: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Manage,
  })
  deleteFact(@Actor() actor: ActorContext, @PathId('fact_id') id: string): Promise<void> {
    return this.memory.deleteFact(actor, id);
  }

  @Get('agents/:agent_name/memories')
  @Endpoint({
    summary: "An agent's memory entries, newest first",
    paged: MemoryEntryDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  list(@PathId('agent_name') name: string, @Query() query: MemoryQueryDto): Promise<Page<MemoryEntryDto>> {
    return this.memory.list(name, query);
  }

  @Post('agents/:agent_name/memories/search')
  @Endpoint({
    summary: "An agent's entries most relevant to a query, best first (503, 8040 without an embedder)",
    response: MemoryEntryDto,
    isArray: true,
    status: 200,
    errors: [400, 401, 403, 404, 503],
    permission: Permission.Read,
  })
  search(@PathId('agent_name') name: string, @Body() dto: MemorySearchDto): Promise<MemoryEntryDto[]> {
    return this.memory.search(name, dto);
  }

  @Delete('agents/:agent_name/memories/:memory_id')
  @Endpoint({
    summary: 'Delete one memory entry (an archived one: 409, 4040)',
    noContent: true,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  delete(@PathId('agent_name') name: string, @PathId('memory_id') id: string): Promise<void> {
    return this.memory.delete(name, id);
  }
}
