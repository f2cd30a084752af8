import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { CoordinateTaskUseCase } from './coordinate-task.use-case';
import { CoordinateTaskDto, CoordinationResultDto } from './dto/coordination.dto';

/** Multi-agent coordination of one task: decomposed, routed and run as subtasks in waves. */
@ApiTags('tasks')
@ApiBearerAuth()
@Controller('tasks')
@RequiresSubsystems('persistence')
export class CoordinationController {
  constructor(private readonly coordinate: CoordinateTaskUseCase) {}

  @Post(':task_id/coordinate')
  @HttpCode(200)
  @Endpoint({
    summary: 'Coordinate a task: decompose it, route the subtasks to agents, run them in waves, roll up',
    description:
      'A failure in the decompose, route or validate phase: 400 naming the phase (2085, 2086, 2087; an unknown ' +
      'agent name 2088). Unknown task: 404 (3004). No model provider or no active agent: 503 (8001).',
    response: CoordinationResultDto,
    errors: [400, 401, 403, 404, 409, 503],
    permission: Permission.Write,
  })
  run(
    @Actor() actor: ActorContext,
    @PathId('task_id') id: string,
    @Body() dto: CoordinateTaskDto,
  ): Promise<CoordinationResultDto> {
    return this.coordinate.execute(actor, id, dto);
  }
}
