import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Permission, personalityJsonSchema } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiEnvelope,
  ApiErrors,
  JsonObjectPipe,
  PathId,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { PersonalityPresetDto, PersonalityPresetSummaryDto } from './dto/personality.dto';
import { PersonalitiesService } from './personalities.service';

const schema = personalityJsonSchema() as { properties: Record<string, object> };
const CREATE_BODY = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,99}$' }, ...schema.properties },
};
const UPDATE_BODY = { type: 'object', additionalProperties: false, properties: schema.properties };

@ApiTags('personalities')
@ApiBearerAuth()
@Controller('personalities')
@RequiresSubsystems('persistence')
export class PersonalitiesController {
  constructor(private readonly personalities: PersonalitiesService) {}

  @Get('presets')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Built-in and custom presets' })
  @ApiEnvelope(PersonalityPresetSummaryDto, { isArray: true })
  @ApiErrors(401, 403)
  list(): Promise<PersonalityPresetSummaryDto[]> {
    return this.personalities.list();
  }

  @Get('schema')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'JSON Schema of a personality: the dimensions, their ranges and defaults' })
  @ApiEnvelope('object')
  @ApiErrors(401, 403)
  schema(): Record<string, unknown> {
    return personalityJsonSchema();
  }

  @Get('presets/:name')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'One preset with every dimension' })
  @ApiEnvelope(PersonalityPresetDto)
  @ApiErrors(400, 401, 403, 404)
  get(@PathId('name') name: string): Promise<PersonalityPresetDto> {
    return this.personalities.get(name);
  }

  @Post('presets')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Create a custom preset (unset dimensions take their defaults)' })
  @ApiBody({ schema: CREATE_BODY })
  @ApiEnvelope(PersonalityPresetDto, { status: 201 })
  @ApiErrors(400, 401, 403, 409)
  create(
    @Actor() actor: ActorContext,
    @Body(JsonObjectPipe) body: Record<string, unknown>,
  ): Promise<PersonalityPresetDto> {
    return this.personalities.create(actor, body);
  }

  @Put('presets/:name')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Replace a custom preset (built-ins are read-only: 409)' })
  @ApiBody({ schema: UPDATE_BODY })
  @ApiEnvelope(PersonalityPresetDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body(JsonObjectPipe) body: Record<string, unknown>,
  ): Promise<PersonalityPresetDto> {
    return this.personalities.update(actor, name, body);
  }

  @Delete('presets/:name')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Delete a custom preset (built-ins are read-only: 409); answers data null' })
  @ApiEnvelope('object', { nullable: true })
  @ApiErrors(400, 401, 403, 404, 409)
  async delete(@Actor() actor: ActorContext, @PathId('name') name: string): Promise<null> {
    await this.personalities.delete(actor, name);
    return null;
  }
}
