import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { CompanyModule } from '../company';
import { ProvidersModule } from '../providers';
import { RunDispatch } from './run-dispatch';
import { TaskLifecycle } from './task-lifecycle';
import { TaskStatistics } from './task-statistics';
import { TasksController } from './tasks.controller';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';

/**
 * Tasks: the API and the single task writer (TaskLifecycle). A task moved to `assigned` is handed to
 * the engine through RunDispatch, which the engine module registers its run handler with.
 */
@Module({
  imports: [AgentsModule, CompanyModule, ProvidersModule],
  controllers: [TasksController],
  providers: [RunDispatch, TaskLifecycle, TaskStatistics, TasksRepository, TasksService],
  exports: [RunDispatch, TaskLifecycle, TaskStatistics, TasksService],
})
export class TasksModule {}
