import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiEnvelope,
  ApiErrors,
  ApiNoContent,
  ApiPaged,
  PathId,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { CancelTaskDto, CreateTaskDto, TaskDto, TaskQueryDto, TransitionTaskDto, UpdateTaskDto } from './dto/task.dto';
import { TasksService } from './tasks.service';

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('tasks')
@RequiresSubsystems('persistence')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Get()
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'Tasks filtered by status (default created), assignee and project' })
  @ApiPaged(TaskDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: TaskQueryDto): Promise<Page<TaskDto>> {
    return this.tasks.list(query, { offset: query.offset, limit: query.limit });
  }

  @Post()
  @RequirePermission(Permission.Write)
  @ApiOperation({
    summary: 'Create a task (status created; with assigned_to it is then assigned and its run starts)',
    description: '409 with error_code 4014 while no language-model provider is configured.',
  })
  @ApiEnvelope(TaskDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  create(@Actor() actor: ActorContext, @Body() dto: CreateTaskDto): Promise<TaskDto> {
    return this.tasks.create(actor, dto);
  }

  @Get(':task_id')
  @RequirePermission(Permission.Read)
  @ApiOperation({ summary: 'One task' })
  @ApiEnvelope(TaskDto)
  @ApiErrors(400, 401, 403, 404)
  get(@PathId('task_id') id: string): Promise<TaskDto> {
    return this.tasks.get(id);
  }

  @Patch(':task_id')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Edit a task; expected_version makes it a compare-and-set (409, 4003)' })
  @ApiEnvelope(TaskDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(@Actor() actor: ActorContext, @PathId('task_id') id: string, @Body() dto: UpdateTaskDto): Promise<TaskDto> {
    return this.tasks.update(actor, id, dto);
  }

  @Delete(':task_id')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Delete a task' })
  @ApiNoContent()
  @ApiErrors(400, 401, 403, 404)
  delete(@Actor() actor: ActorContext, @PathId('task_id') id: string): Promise<void> {
    return this.tasks.delete(actor, id);
  }

  @Post(':task_id/transition')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Move a task through its state machine (illegal moves: 409, 4015/4016/4017)' })
  @ApiEnvelope(TaskDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  transition(
    @Actor() actor: ActorContext,
    @PathId('task_id') id: string,
    @Body() dto: TransitionTaskDto,
  ): Promise<TaskDto> {
    return this.tasks.transition(actor, id, dto);
  }

  @Post(':task_id/cancel')
  @RequirePermission(Permission.Write)
  @ApiOperation({ summary: 'Cancel a task with a reason (a terminal task: 409, 4016)' })
  @ApiEnvelope(TaskDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  cancel(@Actor() actor: ActorContext, @PathId('task_id') id: string, @Body() dto: CancelTaskDto): Promise<TaskDto> {
    return this.tasks.cancel(actor, id, dto);
  }
}
