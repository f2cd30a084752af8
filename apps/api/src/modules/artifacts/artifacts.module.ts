import { Module } from '@nestjs/common';

import { CompanyModule } from '../company';
import { EngineModule } from '../engine';
import { TasksModule } from '../tasks';
import { ArtifactContentController } from './artifact-content.controller';
import { ArtifactContentService } from './artifact-content.service';
import { ArtifactStore } from './artifact-store';
import { ArtifactsController } from './artifacts.controller';
import { ArtifactsRepository } from './artifacts.repository';
import { ArtifactsService } from './artifacts.service';
import { TaskOutputRecorder } from './task-output.recorder';

/**
 * Artifacts: metadata in `artifacts` (its only writer), content in the artifact store on disk; a
 * completed task's committed files are recorded as its artifacts.
 */
@Module({
  imports: [CompanyModule, EngineModule, TasksModule],
  // The content routes first: `/{artifact_id}/content` must not reach a handler of the bare id.
  controllers: [ArtifactContentController, ArtifactsController],
  providers: [ArtifactContentService, ArtifactStore, ArtifactsRepository, ArtifactsService, TaskOutputRecorder],
  exports: [ArtifactsService],
})
export class ArtifactsModule {}
