import { Body, Controller, Headers, Patch, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, ApiIfMatch, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { AgentConfigDto } from '../agents';
import { UpdateAgentDto } from './dto/agent-edit.dto';
import { EditAgentUseCase } from './edit-agent.use-case';

/** Editing an agent after setup: its model, personality, tools, memory, authority, department, name and leave. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class AgentEditsController {
  constructor(private readonly edit: EditAgentUseCase) {}

  @Patch(':agent_name')
  @Endpoint({
    summary: "Edit an agent (managers: their department's agents); a model change applies from the next task",
    description: 'Only the given fields change; answers the new ETag. A stale If-Match answers 409 (4002).',
    response: AgentConfigDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  @ApiIfMatch()
  async update(
    @Actor() actor: ActorContext,
    @PathId('agent_name') name: string,
    @Body() body: UpdateAgentDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AgentConfigDto> {
    const { agent, etag } = await this.edit.execute(actor, name, body, ifMatch);
    res.setHeader('ETag', etag);
    return agent;
  }
}
