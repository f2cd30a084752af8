import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiEnvelope,
  ApiErrors,
  ApiPaged,
  PathId,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { CreateProjectDto, ProjectDto, ProjectQueryDto } from './dto/project.dto';
import { ProjectsService } from './projects.service';

@ApiTags('projects')
@ApiBearerAuth()
@Controller('projects')
@RequiresSubsystems('persistence')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Projects, filtered by status and lead' })
  @ApiPaged(ProjectDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: ProjectQueryDto): Promise<Page<ProjectDto>> {
    return this.projects.list({ status: query.status, lead: query.lead }, { offset: query.offset, limit: query.limit });
  }

  @Post()
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Create a project (status planning); a duplicate name answers 409' })
  @ApiEnvelope(ProjectDto, { status: 201 })
  @ApiErrors(400, 401, 403, 409)
  create(@Actor() actor: ActorContext, @Body() dto: CreateProjectDto): Promise<ProjectDto> {
    return this.projects.create(actor, dto);
  }

  @Get(':project_id')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'One project' })
  @ApiEnvelope(ProjectDto)
  @ApiErrors(400, 401, 403, 404)
  get(@PathId('project_id') id: string): Promise<ProjectDto> {
    return this.projects.get(id);
  }
}
