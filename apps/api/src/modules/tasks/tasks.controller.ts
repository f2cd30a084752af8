import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission, type RenderedPage } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { CancelTaskDto, CreateTaskDto, TaskDto, TaskQueryDto, TransitionTaskDto, UpdateTaskDto } from './dto/task.dto';
import { TasksService } from './tasks.service';

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('tasks')
@RequiresSubsystems('persistence')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Get()
  @Endpoint({
    summary: 'Tasks filtered by status (default created), assignee and project',
    paged: TaskDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: TaskQueryDto): Promise<RenderedPage> {
    return this.tasks.list(query, { offset: query.offset, limit: query.limit });
  }

  @Post()
  @Endpoint({
    summary: 'Create a task (status created; with assigned_to it is then assigned and its run starts)',
    description: '409 with error_code 4014 while no language-model provider is configured.',
    response: TaskDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateTaskDto): Promise<TaskDto> {
    return this.tasks.create(actor, dto);
  }

  @Get(':task_id')
  @Endpoint({ summary: 'One task', response: TaskDto, errors: [400, 401, 403, 404], permission: Permission.Read })
  get(@PathId('task_id') id: string): Promise<TaskDto> {
    return this.tasks.get(id);
  }

  @Patch(':task_id')
  @Endpoint({
    summary: 'Edit a task; expected_version makes it a compare-and-set (409, 4003)',
    response: TaskDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  update(@Actor() actor: ActorContext, @PathId('task_id') id: string, @Body() dto: UpdateTaskDto): Promise<TaskDto> {
    return this.tasks.update(actor, id, dto);
  }

  @Delete(':task_id')
  @Endpoint({ summary: 'Delete a task', noContent: true, errors: [400, 401, 403, 404], permission: Permission.Write })
  delete(@Actor() actor: ActorContext, @PathId('task_id') id: string): Promise<void> {
    return this.tasks.delete(actor, id);
  }

  @Post(':task_id/transition')
  @Endpoint({
    summary: 'Move a task through its state machine (illegal moves: 409, 4015/4016/4017)',
    response: TaskDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  transition(
    @Actor() actor: ActorContext,
    @PathId('task_id') id: string,
    @Body() dto: TransitionTaskDto,
  ): Promise<TaskDto> {
    return this.tasks.transition(actor, id, dto);
  }

  @Post(':task_id/cancel')
  @Endpoint({
    summary: 'Cancel a task with a reason',
    description:
      '409: 4016 when already completed or cancelled; 4015 from created, blocked, failed or interrupted ' +
      '(not a transition: assign it first or delete it); 4003 when a concurrent write moved it on.',
    response: TaskDto,
    status: 201,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Write,
  })
  cancel(@Actor() actor: ActorContext, @PathId('task_id') id: string, @Body() dto: CancelTaskDto): Promise<TaskDto> {
    return this.tasks.cancel(actor, id, dto);
  }
}
