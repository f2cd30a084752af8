import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { AppError, artifactTypeForPath, Channel } from '@app/domain';
import { EventBus, LOGGING_RUNTIME, type LoggingRuntime, subscribeTo } from '@app/platform';

import { MergedFiles, type TaskMerge } from '../engine';
import { TaskLifecycle } from '../tasks';
import { ArtifactContentService } from './artifact-content.service';
import { ArtifactsRepository } from './artifacts.repository';
import { ArtifactsService } from './artifacts.service';

/** Files one completed task turns into artifacts at most; a larger merge is logged and cut there. */
const MAX_FILES_PER_TASK = 200;

/** Content types of committed files by extension; source code reads as plain text. */
const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
};
const TEXT_EXTENSIONS = new Set(
  'txt rst adoc ts tsx js jsx mjs cjs py rb go rs java kt c h cc cpp hpp cs php sh yaml yml toml ini sql css scss'.split(
    ' ',
  ),
);

/**
 * When a task completes, the files its agent committed (added or changed by the task's merge into
 * the base branch) become artifacts of that task, typed by path (tests, documentation, code), with
 * their content as merged. Only the replica that wrote the completion acts on it; a file already
 * recorded for the task is not recorded twice.
 */
@Injectable()
export class TaskOutputRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  private readonly pending = new Set<Promise<void>>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly bus: EventBus,
    private readonly merged: MergedFiles,
    private readonly tasks: TaskLifecycle,
    private readonly artifacts: ArtifactsRepository,
    private readonly service: ArtifactsService,
    private readonly content: ArtifactContentService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('artifacts');
  }

  onModuleInit(): void {
    this.unsubscribe = subscribeTo(this.bus, Channel.Tasks, (event) => {
      if (
        event.origin === 'local' &&
        event.event_type === 'task.status_changed' &&
        event.payload.status === 'completed'
      ) {
        const run: Promise<void> = this.record(event.payload.task_id).then(
          () => undefined,
          (error: unknown) => {
            this.log.warn({ task_id: event.payload.task_id, err: error }, 'artifacts.task_outputs.failed');
          },
        );
        this.pending.add(run);
        void run.finally(() => this.pending.delete(run));
      }
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    await Promise.allSettled([...this.pending]);
  }

  /** Records the task's merged files as artifacts; answers how many were recorded. */
  async record(taskId: string): Promise<number> {
    // The merge first: most runs merge nothing, and that answer needs no read of the task.
    const merge = await this.merged.ofTask(taskId);
    const task = merge && merge.paths.length > 0 ? await this.tasks.find(taskId) : null;
    if (!task || !merge) {
      return 0;
    }
    if (merge.paths.length > MAX_FILES_PER_TASK) {
      this.log.warn(
        { task_id: taskId, files: merge.paths.length, kept: MAX_FILES_PER_TASK },
        'artifacts.task_outputs.capped',
      );
    }
    const paths = merge.paths.slice(0, MAX_FILES_PER_TASK);
    const known = new Set((await this.artifacts.findByTaskAndPaths(taskId, paths)).map((a) => a.path));
    let recorded = 0;
    for (const path of paths.filter((p) => !known.has(p))) {
      if (await this.recordFile(taskId, task.assignedTo ?? 'engine', merge, path)) {
        recorded += 1;
      }
    }
    this.log.info({ task_id: taskId, merge: merge.sha, artifacts: recorded }, 'artifacts.task_outputs.recorded');
    return recorded;
  }

  // One file's failure (an odd path, content over the limit) costs that file only.
  private async recordFile(taskId: string, createdBy: string, merge: TaskMerge, path: string): Promise<boolean> {
    try {
      const row = await this.service.record({
        type: artifactTypeForPath(path),
        path,
        taskId,
        createdBy,
        description: `Committed by ${createdBy} (merge ${merge.sha.slice(0, 12)})`,
      });
      await this.content.storeProduced(row, () => this.merged.read(merge.sha, path), contentTypeOf(path));
      return true;
    } catch (error) {
      const detail = error instanceof AppError ? { code: error.code, reason: error.message } : { err: error };
      this.log.warn({ task_id: taskId, path, ...detail }, 'artifacts.task_outputs.file_skipped');
      return false;
    }
  }
}

function contentTypeOf(path: string): string {
  const name = path.split('/').pop() ?? path;
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  if (TYPES_BY_EXTENSION[extension]) {
    return TYPES_BY_EXTENSION[extension];
  }
  return TEXT_EXTENSIONS.has(extension) || /^(readme|license|makefile|dockerfile)$/i.test(name)
    ? 'text/plain'
    : 'application/octet-stream';
}
