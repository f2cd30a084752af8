import { Body, Controller, Delete, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { ArtifactDto, ArtifactQueryDto, CreateArtifactDto } from './dto/artifact.dto';
import { ArtifactsService } from './artifacts.service';

/** Artifact metadata: record, list, read, delete. The content has its own routes. */
@ApiTags('artifacts')
@ApiBearerAuth()
@Controller('artifacts')
@RequiresSubsystems('persistence')
export class ArtifactsController {
  constructor(private readonly artifacts: ArtifactsService) {}

  @Get()
  @Endpoint({
    summary: 'Artifacts filtered by task, creator and type, oldest first',
    paged: ArtifactDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: ArtifactQueryDto): Promise<Page<ArtifactDto>> {
    return this.artifacts.list(query, { offset: query.offset, limit: query.limit });
  }

  @Post()
  @Endpoint({
    summary: 'Record an artifact of a task (its content is uploaded with PUT /artifacts/{artifact_id}/content)',
    response: ArtifactDto,
    status: 201,
    errors: [400, 401, 403, 404],
    permission: Permission.Write,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateArtifactDto): Promise<ArtifactDto> {
    return this.artifacts.create(actor, dto);
  }

  @Get(':artifact_id')
  @Endpoint({
    summary: 'One artifact (an id that is not a safe file name: 400, 2065)',
    response: ArtifactDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('artifact_id') id: string): Promise<ArtifactDto> {
    return this.artifacts.get(id);
  }

  @Delete(':artifact_id')
  @Endpoint({
    summary: 'Delete an artifact: its content, then its metadata',
    noContent: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Write,
  })
  delete(@Actor() actor: ActorContext, @PathId('artifact_id') id: string): Promise<void> {
    return this.artifacts.delete(actor, id);
  }
}
