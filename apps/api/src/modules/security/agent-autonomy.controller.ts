import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { AgentAutonomyService } from './agent-autonomy.service';
import { AgentAutonomyDto, UpdateAgentAutonomyDto } from './dto/autonomy.dto';

/** Autonomy on the agent resource: read it, and set it (the only way to raise it or lift a downgrade). */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class AgentAutonomyController {
  constructor(private readonly autonomy: AgentAutonomyService) {}

  @Get(':agent_name/autonomy')
  @Endpoint({
    summary: "The agent's autonomy in force, its sources and any downgrade",
    response: AgentAutonomyDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('agent_name') name: string): Promise<AgentAutonomyDto> {
    return this.autonomy.get(name);
  }

  @Put(':agent_name/autonomy')
  @Endpoint({
    summary: "Set the agent's own autonomy (managers: their department's agents); lifts a downgrade",
    response: AgentAutonomyDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Manage,
  })
  set(
    @Actor() actor: ActorContext,
    @PathId('agent_name') name: string,
    @Body() body: UpdateAgentAutonomyDto,
  ): Promise<AgentAutonomyDto> {
    return this.autonomy.set(actor, name, body);
  }
}
