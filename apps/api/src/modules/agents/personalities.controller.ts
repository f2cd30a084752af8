import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';

import { Permission, personalityJsonSchema } from '@app/domain';
import {
  Actor,
  type ActorContext,
  Endpoint,
  JsonObjectPipe,
  namedSchema,
  PathId,
  RequiresSubsystems,
} from '@app/platform';

import { PERSONALITY_UPDATE_BODY, PersonalityPresetDto, PersonalityPresetSummaryDto } from './dto/personality.dto';
import { PersonalitiesService } from './personalities.service';

const schema = personalityJsonSchema() as { properties: Record<string, object> };
const CREATE_BODY = namedSchema('CreatePersonalityPresetRequest', {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,99}$' }, ...schema.properties },
});

@ApiTags('personalities')
@ApiBearerAuth()
@Controller('personalities')
@RequiresSubsystems('persistence')
export class PersonalitiesController {
  constructor(private readonly personalities: PersonalitiesService) {}

  @Get('presets')
  @Endpoint({
    summary: 'Built-in and custom presets',
    response: PersonalityPresetSummaryDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  list(): Promise<PersonalityPresetSummaryDto[]> {
    return this.personalities.list();
  }

  @Get('schema')
  @Endpoint({
    summary: 'JSON Schema of a personality: the dimensions, their ranges and defaults',
    response: 'object',
    errors: [401, 403],
    permission: Permission.Read,
  })
  schema(): Record<string, unknown> {
    return personalityJsonSchema();
  }

  @Get('presets/:name')
  @Endpoint({
    summary: 'One preset with every dimension',
    response: PersonalityPresetDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('name') name: string): Promise<PersonalityPresetDto> {
    return this.personalities.get(name);
  }

  @Post('presets')
  @Endpoint({
    summary: 'Create a custom preset (unset dimensions take their defaults)',
    response: PersonalityPresetDto,
    status: 201,
    errors: [400, 401, 403, 409],
    permission: Permission.Write,
  })
  @ApiBody({ schema: CREATE_BODY })
  create(
    @Actor() actor: ActorContext,
    @Body(JsonObjectPipe) body: Record<string, unknown>,
  ): Promise<PersonalityPresetDto> {
    return this.personalities.create(actor, body);
  }

  @Put('presets/:name')
  @Endpoint({
    summary: 'Replace a custom preset (built-ins are read-only: 409)',
    response: PersonalityPresetDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  @ApiBody({ schema: PERSONALITY_UPDATE_BODY })
  update(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body(JsonObjectPipe) body: Record<string, unknown>,
  ): Promise<PersonalityPresetDto> {
    return this.personalities.update(actor, name, body);
  }

  @Delete('presets/:name')
  @Endpoint({
    summary: 'Delete a custom preset (built-ins are read-only: 409); answers data null',
    response: 'object',
    nullable: true,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  async delete(@Actor() actor: ActorContext, @PathId('name') name: string): Promise<null> {
    await this.personalities.delete(actor, name);
    return null;
  }
}
