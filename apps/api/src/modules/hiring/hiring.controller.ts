import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { CreateHiringRequestDto, HiringRequestDto, HiringRequestQueryDto, SelectCandidateDto } from './dto/hiring.dto';
import { HiringService } from './hiring.service';
import { InstantiateHireUseCase } from './instantiate-hire.use-case';

/** Hiring requests: filing, reads, the choice of a candidate and the making of the agent. */
@ApiTags('hiring')
@ApiBearerAuth()
@Controller('hiring/requests')
@RequiresSubsystems('persistence')
export class HiringController {
  constructor(
    private readonly hiring: HiringService,
    private readonly instantiate: InstantiateHireUseCase,
  ) {}

  @Post()
  @Endpoint({
    summary: 'File a hiring request (candidates built; approved by filing unless a second person must decide)',
    response: HiringRequestDto,
    status: 201,
    errors: [400, 401, 403, 409],
    permission: Permission.Manage,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateHiringRequestDto): Promise<HiringRequestDto> {
    return this.hiring.file({ kind: 'person', actor }, dto);
  }

  @Get()
  @Endpoint({
    summary: 'Hiring requests, oldest first, filtered by status',
    paged: HiringRequestDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: HiringRequestQueryDto): Promise<Page<HiringRequestDto>> {
    return this.hiring.list(query, { offset: query.offset, limit: query.limit });
  }

  @Get(':request_id')
  @Endpoint({
    summary: 'One hiring request',
    response: HiringRequestDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('request_id') id: string): Promise<HiringRequestDto> {
    return this.hiring.get(id);
  }

  @Post(':request_id/select')
  @HttpCode(200)
  @Endpoint({
    summary: 'Choose the candidate to instantiate',
    response: HiringRequestDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  select(
    @Actor() actor: ActorContext,
    @PathId('request_id') id: string,
    @Body() dto: SelectCandidateDto,
  ): Promise<HiringRequestDto> {
    return this.hiring.select(actor, id, dto.candidate_id);
  }

  @Post(':request_id/instantiate')
  @HttpCode(200)
  @Endpoint({
    summary: 'Make the agent of an approved request; it starts onboarding',
    description: '409: pending 4080, rejected 4081, already instantiated 4082; a taken name 4001 or 4098.',
    response: HiringRequestDto,
    errors: [401, 403, 404, 409],
    permission: Permission.Manage,
  })
  make(@Actor() actor: ActorContext, @PathId('request_id') id: string): Promise<HiringRequestDto> {
    return this.instantiate.execute(actor, id);
  }
}
