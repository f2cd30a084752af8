import { Body, Controller, Get, Param, type PipeTransform, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';

import { ErrorCode, Permission, ValidationError } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiEnvelope,
  ApiErrors,
  Public,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

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
  SetAgentModelDto,
  SetAgentNameDto,
  SetAgentPersonalityDto,
  SetupAgentListDto,
  SetupAgentSummaryDto,
  SetupCompleteDto,
  SetupPersonalityPresetsDto,
  SetupStatusDto,
  TemplateSummaryDto,
} from './dto/setup.dto';
import { NAME_LOCALE_REGIONS, nameLocaleDisplayNames } from './names/name-locales';
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
  @Public()
  @ApiOperation({ summary: 'What first-run setup still needs (public)' })
  @ApiEnvelope(SetupStatusDto)
  @ApiErrors(503)
  status(): Promise<SetupStatusDto> {
    return this.setup.status();
  }

  @Get('templates')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Built-in company templates' })
  @ApiEnvelope(TemplateSummaryDto, { isArray: true })
  @ApiErrors(401, 403)
  templatesList(): TemplateSummaryDto[] {
    return this.templates.list().map((t) => ({
      name: t.name,
      display_name: t.displayName,
      description: t.description,
      source: t.source,
      tags: t.tags,
      skill_patterns: t.skillPatterns,
      variables: t.variables.map((v) => ({
        name: v.name,
        description: v.description,
        var_type: v.varType,
        default: v.default,
        required: v.required,
      })),
      agent_count: t.agentCount,
      department_count: t.departmentCount,
      autonomy_level: t.autonomyLevel,
      workflow: t.workflow,
    }));
  }

  @Post('company')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Create the company, from a template (its agents are hired) or blank' })
  @ApiEnvelope(CreateCompanyResponseDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  createCompany(@Actor() actor: ActorContext, @Body() dto: CreateCompanyDto): Promise<CreateCompanyResponseDto> {
    return this.createCompanyUseCase.execute(actor, dto);
  }

  @Post('agent')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Add one agent by hand' })
  @ApiEnvelope(SetupAgentSummaryDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  addAgent(@Actor() actor: ActorContext, @Body() dto: CreateSetupAgentDto): Promise<SetupAgentSummaryDto> {
    return this.addAgentUseCase.execute(actor, dto);
  }

  @Get('agents')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'The roster in stored order (the position is the agent_index)' })
  @ApiEnvelope(SetupAgentListDto)
  @ApiErrors(401, 403)
  agents(): Promise<SetupAgentListDto> {
    return this.setup.listAgents();
  }

  @Put('agents/:agent_index/model')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: "Set an agent's model" })
  @ApiParam(AGENT_INDEX_DOC)
  @ApiEnvelope(SetupAgentSummaryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  setModel(@AgentIndex() index: number, @Body() dto: SetAgentModelDto): Promise<SetupAgentSummaryDto> {
    return this.setup.setAgentModel(index, dto.model_provider, dto.model_id);
  }

  @Put('agents/:agent_index/name')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Rename an agent' })
  @ApiParam(AGENT_INDEX_DOC)
  @ApiEnvelope(SetupAgentSummaryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  setName(@AgentIndex() index: number, @Body() dto: SetAgentNameDto): Promise<SetupAgentSummaryDto> {
    return this.setup.setAgentName(index, dto.name);
  }

  @Post('agents/:agent_index/randomize-name')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Give an agent a random name from the chosen name locales' })
  @ApiParam(AGENT_INDEX_DOC)
  @ApiEnvelope(SetupAgentSummaryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  randomizeName(@AgentIndex() index: number): Promise<SetupAgentSummaryDto> {
    return this.setup.randomizeAgentName(index);
  }

  @Put('agents/:agent_index/personality')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Apply a personality preset to an agent' })
  @ApiParam(AGENT_INDEX_DOC)
  @ApiEnvelope(SetupAgentSummaryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  setPersonality(@AgentIndex() index: number, @Body() dto: SetAgentPersonalityDto): Promise<SetupAgentSummaryDto> {
    return this.setup.setAgentPersonality(index, dto.personality_preset);
  }

  @Get('personality-presets')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Personality presets to choose from' })
  @ApiEnvelope(SetupPersonalityPresetsDto)
  @ApiErrors(401, 403)
  async personalityPresets(): Promise<SetupPersonalityPresetsDto> {
    return { presets: (await this.personalities.list()).map((p) => ({ name: p.name, description: p.description })) };
  }

  @Get('name-locales/available')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Name locales by region, with display names' })
  @ApiEnvelope(AvailableNameLocalesDto)
  @ApiErrors(401, 403)
  availableLocales(): AvailableNameLocalesDto {
    return { regions: NAME_LOCALE_REGIONS, display_names: nameLocaleDisplayNames() };
  }

  @Get('name-locales')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'The locales random agent names come from' })
  @ApiEnvelope(NameLocalesDto)
  @ApiErrors(401, 403)
  async nameLocales(): Promise<NameLocalesDto> {
    return { locales: await this.setup.nameLocales() };
  }

  @Put('name-locales')
  @RequirePermission(Permission.Administer)
  @ApiOperation({ summary: 'Choose the name locales (1–100 codes, or ["__all__"])' })
  @ApiEnvelope(NameLocalesDto)
  @ApiErrors(400, 401, 403, 409)
  async setNameLocales(@Actor() actor: ActorContext, @Body() dto: NameLocalesDto): Promise<NameLocalesDto> {
    return { locales: await this.setup.setNameLocales(actor, dto.locales) };
  }

  @Post('complete')
  @RequirePermission(Permission.Administer)
  @ApiOperation({
    summary: 'Complete setup: check, validate, reinitialise, persist (needs a company and a provider)',
  })
  @ApiEnvelope(SetupCompleteDto)
  @ApiErrors(400, 401, 403, 409)
  complete(@Actor() actor: ActorContext): Promise<SetupCompleteDto> {
    return this.completeSetupUseCase.execute(actor);
  }
}
