import { Body, Controller, Get, Param, type PipeTransform, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';

import { ErrorCode, Permission, ValidationError } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { PersonalitiesService } from '../agents';
import { AddAgentUseCase } from './add-agent.use-case';
import { CompleteSetupUseCase } from './complete-setup.use-case';
import { CreateCompanyUseCase } from './create-company.use-case';
import {
  AvailableNameLocalesDto,
  CreateCompanyDto,
  CreateCompanyResponseDto,
  CreateSetupAgentDto,
  NameLocalesDto,
  NameLocalesResponseDto,
  SetAgentModelDto,
  SetAgentNameDto,
  SetAgentPersonalityDto,
  SetupAgentListDto,
  SetupAgentSummaryDto,
  SetupCompleteDto,
  SetupPersonalityPresetsDto,
  SetupStatusDto,
  TemplateDetailDto,
  TemplateSummaryDto,
} from './dto/setup.dto';
import { NAME_LOCALE_REGIONS, nameLocaleDisplayNames } from './names/name-locales';
import { toTemplateDetailDto, toTemplateSummaryDto } from './setup.mapper';
import { SetupService } from './setup.service';
import { TemplateCatalog } from './templates/template-catalog';

/** `agent_index`: a zero-based position in GET /setup/agents. */
class AgentIndexPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,6}$/.test(value)) {
      throw new ValidationError('agent_index: must be a non-negative integer', ErrorCode.RequestValidationError);
    }
    return Number(value);
  }
}

const AgentIndex = (): ParameterDecorator => Param('agent_index', new AgentIndexPipe());
const AGENT_INDEX_DOC = { name: 'agent_index', type: 'integer', minimum: 0 } as const;

@ApiTags('setup')
@ApiBearerAuth()
@Controller('setup')
@RequiresSubsystems('persistence')
export class SetupController {
  constructor(
    private readonly setup: SetupService,
    private readonly createCompanyUseCase: CreateCompanyUseCase,
    private readonly addAgentUseCase: AddAgentUseCase,
    private readonly completeSetupUseCase: CompleteSetupUseCase,
    private readonly templates: TemplateCatalog,
    private readonly personalities: PersonalitiesService,
  ) {}

  @Get('status')
  @Endpoint({
    summary: 'What first-run setup still needs (public)',
    response: SetupStatusDto,
    errors: [503],
    public: true,
  })
  status(): Promise<SetupStatusDto> {
    return this.setup.status();
  }

  @Get('templates')
  @Endpoint({
    summary: 'Built-in company templates',
    response: TemplateSummaryDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  templatesList(): TemplateSummaryDto[] {
    return this.templates.list().map(toTemplateSummaryDto);
  }

  @Get('templates/:template_name')
  @Endpoint({
    summary: "A template's departments and agents, as its defaults create them",
    response: TemplateDetailDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  template(@PathId('template_name') raw: string): TemplateDetailDto {
    const name = raw.trim().toLowerCase();
    return toTemplateDetailDto(this.templates.summary(name), this.templates.render(name));
  }

  @Post('company')
  @Endpoint({
    summary: 'Create the company, from a template (its agents are hired) or blank',
    response: CreateCompanyResponseDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  createCompany(@Actor() actor: ActorContext, @Body() dto: CreateCompanyDto): Promise<CreateCompanyResponseDto> {
    return this.createCompanyUseCase.execute(actor, dto);
  }

  @Post('agent')
  @Endpoint({
    summary: 'Add one agent by hand',
    response: SetupAgentSummaryDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  addAgent(@Actor() actor: ActorContext, @Body() dto: CreateSetupAgentDto): Promise<SetupAgentSummaryDto> {
    return this.addAgentUseCase.execute(actor, dto);
  }

  @Get('agents')
  @Endpoint({
    summary: 'The roster in stored order (the position is the agent_index)',
    response: SetupAgentListDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  agents(): Promise<SetupAgentListDto> {
    return this.setup.listAgents();
  }

  @Put('agents/:agent_index/model')
  @Endpoint({
    summary: "Set an agent's model",
    response: SetupAgentSummaryDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  @ApiParam(AGENT_INDEX_DOC)
  setModel(@AgentIndex() index: number, @Body() dto: SetAgentModelDto): Promise<SetupAgentSummaryDto> {
    return this.setup.setAgentModel(index, dto.model_provider, dto.model_id);
  }

  @Put('agents/:agent_index/name')
  @Endpoint({
    summary: 'Rename an agent',
    response: SetupAgentSummaryDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  @ApiParam(AGENT_INDEX_DOC)
  setName(@AgentIndex() index: number, @Body() dto: SetAgentNameDto): Promise<SetupAgentSummaryDto> {
    return this.setup.setAgentName(index, dto.name);
  }

  @Post('agents/:agent_index/randomize-name')
  @Endpoint({
    summary: 'Give an agent a random name from the chosen name locales',
    response: SetupAgentSummaryDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  @ApiParam(AGENT_INDEX_DOC)
  randomizeName(@AgentIndex() index: number): Promise<SetupAgentSummaryDto> {
    return this.setup.randomizeAgentName(index);
  }

  @Put('agents/:agent_index/personality')
  @Endpoint({
    summary: 'Apply a personality preset to an agent',
    response: SetupAgentSummaryDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Administer,
  })
  @ApiParam(AGENT_INDEX_DOC)
  setPersonality(@AgentIndex() index: number, @Body() dto: SetAgentPersonalityDto): Promise<SetupAgentSummaryDto> {
    return this.setup.setAgentPersonality(index, dto.personality_preset);
  }

  @Get('personality-presets')
  @Endpoint({
    summary: 'Personality presets to choose from',
    response: SetupPersonalityPresetsDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  async personalityPresets(): Promise<SetupPersonalityPresetsDto> {
    return { presets: (await this.personalities.list()).map((p) => ({ name: p.name, description: p.description })) };
  }

  @Get('name-locales/available')
  @Endpoint({
    summary: 'Name locales by region, with display names',
    response: AvailableNameLocalesDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  availableLocales(): AvailableNameLocalesDto {
    return { regions: NAME_LOCALE_REGIONS, display_names: nameLocaleDisplayNames() };
  }

  @Get('name-locales')
  @Endpoint({
    summary: 'The locales random agent names come from',
    response: NameLocalesResponseDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  async nameLocales(): Promise<NameLocalesDto> {
    return { locales: await this.setup.nameLocales() };
  }

  @Put('name-locales')
  @Endpoint({
    summary: 'Choose the name locales (1–100 codes, or ["__all__"])',
    response: NameLocalesResponseDto,
    errors: [400, 401, 403, 409],
    permission: Permission.Administer,
  })
  async setNameLocales(@Actor() actor: ActorContext, @Body() dto: NameLocalesDto): Promise<NameLocalesDto> {
    return { locales: await this.setup.setNameLocales(actor, dto.locales) };
  }

  @Post('complete')
  @Endpoint({
    summary: 'Complete setup: check, validate, reinitialise, persist (needs a company and a provider)',
    response: SetupCompleteDto,
    errors: [400, 401, 403, 409],
    permission: Permission.Administer,
  })
  complete(@Actor() actor: ActorContext): Promise<SetupCompleteDto> {
    return this.completeSetupUseCase.execute(actor);
  }
}
