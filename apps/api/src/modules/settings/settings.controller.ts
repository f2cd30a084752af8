import { Body, Controller, Delete, Get, Headers, Put, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, ApiIfMatch, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { SettingDefinitionDto, SettingEntryDto, UpdateSettingDto } from './dto/setting.dto';
import { SettingsService } from './settings.service';

/** Runtime settings of the nine namespaces. The `_schema` routes are declared before `/{namespace}`. */
@ApiTags('settings')
@ApiBearerAuth()
@Controller('settings')
@RequiresSubsystems('persistence')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @Endpoint({
    summary: 'Every setting with its value and source',
    response: SettingEntryDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  list(): Promise<SettingEntryDto[]> {
    return this.settings.list();
  }

  @Get('_schema')
  @Endpoint({
    summary: 'Every setting definition',
    response: SettingDefinitionDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  schema(): SettingDefinitionDto[] {
    return this.settings.schema();
  }

  @Get('_schema/:namespace')
  @Endpoint({
    summary: "A namespace's setting definitions",
    response: SettingDefinitionDto,
    isArray: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  namespaceSchema(@PathId('namespace') namespace: string): SettingDefinitionDto[] {
    return this.settings.schemaOf(namespace);
  }

  @Get(':namespace')
  @Endpoint({
    summary: "A namespace's settings with their values and sources",
    response: SettingEntryDto,
    isArray: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  namespace(@PathId('namespace') namespace: string): Promise<SettingEntryDto[]> {
    return this.settings.listNamespace(namespace);
  }

  @Get(':namespace/:key')
  @Endpoint({
    summary: 'One setting (ETag header: its version, for If-Match)',
    response: SettingEntryDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  async get(
    @PathId('namespace') namespace: string,
    @PathId('key') key: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SettingEntryDto> {
    const { entry, etag } = await this.settings.entry(namespace, key);
    res.setHeader('ETag', etag);
    return entry;
  }

  @Put(':namespace/:key')
  @Endpoint({
    summary: 'Store a value (a restart-required one is stored and applies at the next start)',
    response: SettingEntryDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  @ApiIfMatch()
  async put(
    @Actor() actor: ActorContext,
    @PathId('namespace') namespace: string,
    @PathId('key') key: string,
    @Body() body: UpdateSettingDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SettingEntryDto> {
    const { entry, etag } = await this.settings.put(actor, namespace, key, body.value, ifMatch);
    res.setHeader('ETag', etag);
    return entry;
  }

  @Delete(':namespace/:key')
  @Endpoint({
    summary: 'Remove the stored value: the environment, YAML or default applies again',
    noContent: true,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  @ApiIfMatch()
  remove(
    @Actor() actor: ActorContext,
    @PathId('namespace') namespace: string,
    @PathId('key') key: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.settings.remove(actor, namespace, key, ifMatch);
  }
}
