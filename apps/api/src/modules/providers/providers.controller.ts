import { Body, Controller, Delete, Get, Post, Put, Query, Res, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { type Page, Permission } from '@app/domain';
import {
  Actor,
  type ActorContext,
  Endpoint,
  PageQueryDto,
  PathId,
  RAW_RESPONSE,
  RequiresSubsystems,
} from '@app/platform';

import { DiscoveryService } from './discovery/discovery.service';
import { DiscoverModelsQueryDto, DiscoverModelsResultDto } from './dto/discovery.dto';
import { LocalModelConfigDto, ModelEntryResponseDto, ProviderModelDto, PullModelDto } from './dto/model.dto';
import { ProviderHealthDto, TestProviderDto, TestResultDto } from './dto/provider-insights.dto';
import { CreateProviderDto, ProviderDto, UpdateProviderDto } from './dto/provider.dto';
import { LocalModelsService } from './local-models.service';
import { ProviderInsightsService } from './provider-insights.service';
import { ProvidersService } from './providers.service';

@ApiTags('providers')
@ApiBearerAuth()
@Controller('providers')
@RequiresSubsystems('persistence')
export class ProvidersController {
  constructor(
    private readonly providers: ProvidersService,
    private readonly insights: ProviderInsightsService,
    private readonly discovery: DiscoveryService,
    private readonly localModels: LocalModelsService,
  ) {}

  @Get()
  @Endpoint({
    summary: 'Registered providers (secrets never included)',
    paged: ProviderDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: PageQueryDto): Promise<Page<ProviderDto>> {
    return this.providers.list({ offset: query.offset, limit: query.limit });
  }

  @Post()
  @Endpoint({
    summary: 'Register a provider; the registry and router reload without downtime',
    response: ProviderDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateProviderDto): Promise<ProviderDto> {
    return this.providers.create(actor, dto);
  }

  @Get(':name')
  @Endpoint({
    summary: 'One provider',
    response: ProviderDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('name') name: string): Promise<ProviderDto> {
    return this.providers.get(name);
  }

  @Put(':name')
  @Endpoint({
    summary: 'Update a provider (omitted fields keep their values; clear_* flags remove secrets)',
    response: ProviderDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  update(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() dto: UpdateProviderDto,
  ): Promise<ProviderDto> {
    return this.providers.update(actor, name, dto);
  }

  @Delete(':name')
  @Endpoint({
    summary: 'Remove a provider (409 while agents use its models)',
    noContent: true,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  delete(@Actor() actor: ActorContext, @PathId('name') name: string): Promise<void> {
    return this.providers.delete(actor, name);
  }

  @Post(':name/test')
  @Endpoint({
    summary: 'Send a minimal probe call; reports latency, or the error and its 7xxx code',
    response: TestResultDto,
    status: 201,
    errors: [400, 401, 403, 404],
    permission: Permission.Write,
  })
  test(@PathId('name') name: string, @Body() dto: TestProviderDto): Promise<TestResultDto> {
    return this.insights.test(name, dto.model);
  }

  @Get(':name/models')
  @Endpoint({
    summary: 'Models with capability flags (driver answers; defaults when unavailable)',
    response: ProviderModelDto,
    isArray: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  models(@PathId('name') name: string): Promise<ProviderModelDto[]> {
    return this.insights.models(name);
  }

  @Get(':name/health')
  @Endpoint({
    summary: 'Health over the last 24 hours of calls (unknown without calls)',
    response: ProviderHealthDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  health(@PathId('name') name: string): Promise<ProviderHealthDto> {
    return this.insights.health(name);
  }

  @Post(':name/discover-models')
  @Endpoint({
    summary: "Query the provider's model endpoint and add new models (private addresses need an allowlist entry)",
    response: DiscoverModelsResultDto,
    status: 201,
    errors: [400, 401, 403, 404, 503],
    permission: Permission.Write,
  })
  discover(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Query() query: DiscoverModelsQueryDto,
  ): Promise<DiscoverModelsResultDto> {
    return this.discovery.discover(actor, name, query.preset_hint);
  }

  @Post(':name/models/pull')
  @Endpoint({
    summary:
      'Download a local model, streaming progress as server-sent events ' +
      '(data: {status, progress_percent, total_bytes, completed_bytes, error, done}; failures as event: error)',
    errors: [400, 401, 403, 404],
    permission: Permission.Write,
  })
  @SetMetadata(RAW_RESPONSE, true)
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'Progress stream',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  pull(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() dto: PullModelDto,
    @Res() res: Response,
  ): Promise<void> {
    return this.localModels.pull(actor, name, dto.model_name, res);
  }

  @Delete(':name/models/:model_id')
  @Endpoint({
    summary: 'Remove a local model (a "/" in the id is sent percent-encoded)',
    noContent: true,
    errors: [400, 401, 403, 404, 503],
    permission: Permission.Write,
  })
  deleteModel(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @PathId('model_id') modelId: string,
  ): Promise<void> {
    return this.localModels.delete(actor, name, modelId);
  }

  @Put(':name/models/:model_id/config')
  @Endpoint({
    summary: 'Set the launch parameters of a local model',
    response: ModelEntryResponseDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Write,
  })
  configure(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @PathId('model_id') modelId: string,
    @Body() dto: LocalModelConfigDto,
  ): Promise<ModelEntryResponseDto> {
    return this.localModels.configure(actor, name, modelId, dto.local_params);
  }
}
