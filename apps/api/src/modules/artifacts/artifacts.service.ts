import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type ArtifactType,
  assertArtifactId,
  assertArtifactPath,
  Channel,
  ErrorCode,
  normaliseContentType,
  NotFoundError,
  Page,
  type PageRequest,
  parseArtifactType,
  requireText,
} from '@app/domain';
import type { ArtifactEntity } from '@app/persistence';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ProjectsService } from '../company';
import { TaskLifecycle } from '../tasks';
import { ArtifactStore } from './artifact-store';
import type { ArtifactDto, ArtifactQueryDto, CreateArtifactDto } from './dto/artifact.dto';
import { toArtifactDto, toArtifactDtoFromRow } from './artifacts.mapper';
import { ArtifactsRepository } from './artifacts.repository';

/** Fields of a new artifact, from the API or from a completed task's commits. */
export interface NewArtifact {
  type: ArtifactType;
  path: string;
  taskId: string;
  createdBy: string;
  description?: string;
  contentType?: string;
  projectId?: string | null;
}

/** Artifacts: record, list, read and delete (content first, then metadata); every change is announced. */
@Injectable()
export class ArtifactsService {
  private readonly log: Logger;

  constructor(
    private readonly artifacts: ArtifactsRepository,
    private readonly store: ArtifactStore,
    private readonly tasks: TaskLifecycle,
    private readonly projects: ProjectsService,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('artifacts');
  }

  async list(query: ArtifactQueryDto, page: PageRequest): Promise<Page<ArtifactDto>> {
    const filter = {
      taskId: query.task_id,
      createdBy: query.created_by,
      type: query.type === undefined ? undefined : parseArtifactType(query.type),
    };
    const { items, total } = await this.artifacts.page(filter, page);
    return new Page(items.map(toArtifactDtoFromRow), total, page.offset, page.limit);
  }

  async get(id: string): Promise<ArtifactDto> {
    return toArtifactDto(await this.getOrThrow(id));
  }

  async create(actor: ActorContext, dto: CreateArtifactDto): Promise<ArtifactDto> {
    const row = await this.record({
      type: parseArtifactType(dto.type),
      path: dto.path,
      taskId: dto.task_id,
      createdBy: requireText('created_by', dto.created_by),
      description: dto.description,
      contentType: dto.content_type,
      projectId: dto.project_id,
    });
    this.log.info({ artifact_id: row.id, task_id: row.taskId, actor: actor.username }, 'artifacts.artifact.created');
    return toArtifactDto(row);
  }

  /** Stores a new artifact's metadata (no content yet) and announces it. */
  async record(input: NewArtifact): Promise<ArtifactEntity> {
    const path = assertArtifactPath(input.path);
    const task = await this.tasks.find(input.taskId);
    if (!task) {
      throw new NotFoundError(`Task "${input.taskId}" not found`, ErrorCode.TaskNotFound);
    }
    const projectId = input.projectId ? await this.projects.resolveId(input.projectId) : task.project;
    const now = new Date();
    const row: ArtifactEntity = {
      id: `artifact-${randomUUID()}`,
      type: input.type,
      path,
      taskId: task.id,
      createdBy: input.createdBy,
      description: input.description ?? '',
      projectId,
      // Empty until content arrives; a declared type is kept for the upload to default to.
      contentType: input.contentType ? normaliseContentType(input.contentType) : '',
      sizeBytes: 0,
      sha256: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.artifacts.insert(row);
    await this.announce('artifact.created', row);
    return row;
  }

  /** Removes the content, then the metadata. */
  async delete(actor: ActorContext, id: string): Promise<void> {
    const row = await this.getOrThrow(id);
    await this.store.remove(row.id);
    await this.artifacts.delete(row.id);
    this.log.info({ artifact_id: row.id, actor: actor.username }, 'artifacts.artifact.deleted');
    await this.announce('artifact.deleted', row);
  }

  /** The stored row; 400 (2065) for an unsafe id, 404 (3025) for an unknown one. */
  async getOrThrow(id: string): Promise<ArtifactEntity> {
    const row = await this.artifacts.findById(assertArtifactId(id));
    if (!row) {
      throw new NotFoundError(`Artifact "${id}" not found`, ErrorCode.ArtifactNotFound);
    }
    return row;
  }

  async announce(
    eventType: 'artifact.created' | 'artifact.deleted' | 'artifact.content_uploaded',
    row: ArtifactEntity,
  ): Promise<void> {
    await announce(this.bus, this.log, {
      channel: Channel.Artifacts,
      event_type: eventType,
      payload: { artifact_id: row.id, task_id: row.taskId, artifact: toArtifactDto(row) },
    });
  }
}
