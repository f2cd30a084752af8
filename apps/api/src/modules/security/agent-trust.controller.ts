import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { AgentTrustService } from './agent-trust.service';
import { AgentTrustDto } from './dto/trust.dto';

/** Progressive trust on the agent resource (read only: promotions into elevated go through /approvals). */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
@RequiresSubsystems('persistence')
export class AgentTrustController {
  constructor(private readonly trust: AgentTrustService) {}

  @Get(':agent_name/trust')
  @Endpoint({
    summary: "The agent's progressive trust: access level, strategy, a promotion waiting, the changes",
    response: AgentTrustDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('agent_name') name: string): Promise<AgentTrustDto> {
    return this.trust.get(name);
  }
}
