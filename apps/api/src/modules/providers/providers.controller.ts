import { Body, Controller, Delete, Get, Post, Put, Query, Res, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

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
  RAW_RESPONSE,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { DiscoveryService } from './discovery/discovery.service';
import {
  CreateProviderDto,
  DiscoverModelsQueryDto,
  DiscoverModelsResultDto,
  LocalModelConfigDto,
  ModelEntryResponseDto,
  ProviderDto,
  ProviderHealthDto,
  ProviderModelDto,
  PullModelDto,
  TestProviderDto,
  TestResultDto,
  UpdateProviderDto,
} from './dto/provider.dto';
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
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Registered providers (secrets never included)' })
  @ApiPaged(ProviderDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: PageQueryDto): Promise<Page<ProviderDto>> {
    return this.providers.list({ offset: query.offset, limit: query.limit });
  }

  @Post()
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Register a provider; the registry and router reload without downtime' })
  @ApiEnvelope(ProviderDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  create(@Actor() actor: ActorContext, @Body() dto: CreateProviderDto): Promise<ProviderDto> {
    return this.providers.create(actor, dto);
  }

  @Get(':name')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'One provider' })
  @ApiEnvelope(ProviderDto)
  @ApiErrors(400, 401, 403, 404)
  get(@PathId('name') name: string): Promise<ProviderDto> {
    return this.providers.get(name);
  }

  @Put(':name')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Update a provider (omitted fields keep their values; clear_* flags remove secrets)' })
  @ApiEnvelope(ProviderDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() dto: UpdateProviderDto,
  ): Promise<ProviderDto> {
    return this.providers.update(actor, name, dto);
  }

  @Delete(':name')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Remove a provider (409 while agents use its models)' })
  @ApiNoContent()
  @ApiErrors(400, 401, 403, 404, 409)
  delete(@Actor() actor: ActorContext, @PathId('name') name: string): Promise<void> {
    return this.providers.delete(actor, name);
  }

  @Post(':name/test')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Send a minimal probe call; reports latency, or the error and its 7xxx code' })
  @ApiEnvelope(TestResultDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404)
  test(@PathId('name') name: string, @Body() dto: TestProviderDto): Promise<TestResultDto> {
    return this.insights.test(name, dto.model);
  }

  @Get(':name/models')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Models with capability flags (driver answers; defaults when unavailable)' })
  @ApiEnvelope(ProviderModelDto, { isArray: true })
  @ApiErrors(400, 401, 403, 404)
  models(@PathId('name') name: string): Promise<ProviderModelDto[]> {
    return this.insights.models(name);
  }

  @Get(':name/health')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Health over the last 24 hours of calls (unknown without calls)' })
  @ApiEnvelope(ProviderHealthDto)
  @ApiErrors(400, 401, 403, 404)
  health(@PathId('name') name: string): Promise<ProviderHealthDto> {
    return this.insights.health(name);
  }

  @Post(':name/discover-models')
  @RequirePermission(Permission.Write)
  @ApiOperation({
    summary: "Query the provider's model endpoint and add new models (private addresses need an allowlist entry)",
  })
  @ApiEnvelope(DiscoverModelsResultDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 503)
  discover(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Query() query: DiscoverModelsQueryDto,
  ): Promise<DiscoverModelsResultDto> {
    return this.discovery.discover(actor, name, query.preset_hint);
  }

  @Post(':name/models/pull')
  @RequirePermission(Permission.Write)
  @SetMetadata(RAW_RESPONSE, true)
  @ApiOperation({
    summary:
      'Download a local model, streaming progress as server-sent events ' +
      '(data: {status, progress_percent, total_bytes, completed_bytes, error, done}; failures as event: error)',
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'Progress stream',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrors(400, 401, 403, 404)
  pull(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() dto: PullModelDto,
    @Res() res: Response,
  ): Promise<void> {
    return this.localModels.pull(actor, name, dto.model_name, res);
  }

  @Delete(':name/models/:model_id')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Remove a local model (a "/" in the id is sent percent-encoded)' })
  @ApiNoContent()
  @ApiErrors(400, 401, 403, 404, 503)
  deleteModel(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @PathId('model_id') modelId: string,
  ): Promise<void> {
    return this.localModels.delete(actor, name, modelId);
  }

  @Put(':name/models/:model_id/config')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Set the launch parameters of a local model' })
  @ApiEnvelope(ModelEntryResponseDto)
  @ApiErrors(400, 401, 403, 404)
  configure(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @PathId('model_id') modelId: string,
    @Body() dto: LocalModelConfigDto,
  ): Promise<ModelEntryResponseDto> {
    return this.localModels.configure(actor, name, modelId, dto.local_params);
  }
}
