import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { CreateProjectDto, ProjectDto, ProjectQueryDto } from './dto/project.dto';
import { ProjectsService } from './projects.service';

@ApiTags('projects')
@ApiBearerAuth()
@Controller('projects')
@RequiresSubsystems('persistence')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  @Endpoint({
    summary: 'Projects, filtered by status and lead',
    paged: ProjectDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: ProjectQueryDto): Promise<Page<ProjectDto>> {
    return this.projects.list({ status: query.status, lead: query.lead }, { offset: query.offset, limit: query.limit });
  }

  @Post()
  @Endpoint({
    summary: 'Create a project (status planning); a duplicate name answers 409',
    response: ProjectDto,
    status: 201,
    errors: [400, 401, 403, 409],
    permission: Permission.Write,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateProjectDto): Promise<ProjectDto> {
    return this.projects.create(actor, dto);
  }

  @Get(':project_id')
  @Endpoint({ summary: 'One project', response: ProjectDto, errors: [400, 401, 403, 404], permission: Permission.Read })
  get(@PathId('project_id') id: string): Promise<ProjectDto> {
    return this.projects.get(id);
  }
}
