import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission, PROVIDER_PRESETS } from '@app/domain';
import { Actor, type ActorContext, Endpoint, RequiresSubsystems } from '@app/platform';

import { DiscoveryService } from './discovery/discovery.service';
import { PresetDto, ProbePresetDto, ProbePresetResultDto } from './dto/preset.dto';
import { FromPresetDto, ProviderDto } from './dto/provider.dto';
import { toPresetDto } from './providers.mapper';
import { ProvidersService } from './providers.service';

@ApiTags('providers')
@ApiBearerAuth()
@Controller('providers')
@RequiresSubsystems('persistence')
export class ProviderPresetsController {
  constructor(
    private readonly providers: ProvidersService,
    private readonly discovery: DiscoveryService,
  ) {}

  @Get('presets')
  @Endpoint({
    summary: 'The 11 built-in provider presets',
    response: PresetDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  list(): PresetDto[] {
    return PROVIDER_PRESETS.map(toPresetDto);
  }

  @Post('from-preset')
  @Endpoint({
    summary: 'Create a provider from a preset; a no-auth preset without models discovers its models at once',
    response: ProviderDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  async fromPreset(@Actor() actor: ActorContext, @Body() dto: FromPresetDto): Promise<ProviderDto> {
    const preset = this.providers.preset(dto.preset_name);
    const created = await this.providers.create(actor, {
      name: dto.name,
      preset_name: preset.name,
      auth_type: dto.auth_type,
      api_key: dto.api_key,
      subscription_token: dto.subscription_token,
      tos_accepted: dto.tos_accepted,
      base_url: dto.base_url,
      trust_address: dto.trust_address,
      models:
        dto.models ??
        preset.default_models.map((m) => ({ ...m, alias: m.alias ?? undefined, local_params: undefined })),
    });
    if (created.auth_type === 'none' && created.models.length === 0) {
      await this.discovery.discoverQuietly(actor, created.name);
      return this.providers.get(created.name);
    }
    return created;
  }

  @Post('probe-preset')
  @Endpoint({
    summary: "Probe a preset's candidate URLs in order (5 s each); the first reachable one and its model count",
    response: ProbePresetResultDto,
    status: 201,
    errors: [400, 401, 403, 404],
    permission: Permission.Write,
  })
  probe(@Body() dto: ProbePresetDto): Promise<ProbePresetResultDto> {
    return this.discovery.probePreset(dto.preset_name);
  }
}
