import { Module } from '@nestjs/common';

import { CompanyModule } from '../company';
import { TasksModule } from '../tasks';
import { ArtifactContentController } from './artifact-content.controller';
import { ArtifactContentService } from './artifact-content.service';
import { ArtifactStore } from './artifact-store';
import { ArtifactsController } from './artifacts.controller';
import { ArtifactsRepository } from './artifacts.repository';
import { ArtifactsService } from './artifacts.service';

/** Artifacts: metadata in `artifacts` (its only writer), content in the artifact store on disk. */
@Module({
  imports: [CompanyModule, TasksModule],
  // The content routes first: `/{artifact_id}/content` must not reach a handler of the bare id.
  controllers: [ArtifactContentController, ArtifactsController],
  providers: [ArtifactContentService, ArtifactStore, ArtifactsRepository, ArtifactsService],
  exports: [ArtifactsService],
})
export class ArtifactsModule {}
