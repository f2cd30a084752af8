import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { EngineModule } from '../engine';
import { ProvidersModule } from '../providers';
import { RunLedgerModule } from '../run-ledger';
import { SettingsModule } from '../settings';
import { TasksModule } from '../tasks';
import { CoordinateTaskUseCase } from './coordinate-task.use-case';
import { CoordinationMetricsRecorder } from './coordination-metrics.recorder';
import { CoordinationController } from './coordination.controller';
import { COORDINATION_SETTINGS } from './coordination.settings';
import { TaskDecomposer } from './task-decomposer';
import { WaveDispatcher } from './wave-dispatcher';

/**
 * Multi-agent coordination (engine.md §5): `POST /tasks/{task_id}/coordinate` and its pipeline. The
 * subtasks it creates are ordinary tasks written through the tasks module's lifecycle and run by the
 * engine; its model call is costed through the engine's spend control. Owns the `coordination`
 * settings namespace.
 */
@Module({
  imports: [
    AgentsModule,
    EngineModule,
    ProvidersModule,
    RunLedgerModule,
    SettingsModule.forFeature(COORDINATION_SETTINGS),
    TasksModule,
  ],
  controllers: [CoordinationController],
  providers: [CoordinateTaskUseCase, CoordinationMetricsRecorder, TaskDecomposer, WaveDispatcher],
})
export class CoordinationModule {}
