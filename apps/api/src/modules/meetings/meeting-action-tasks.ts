import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { ConflictError, HumanRole, type MeetingMinutes, type MeetingType, NotFoundError } from '@app/domain';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ProjectsService } from '../company';
import { TasksService } from '../tasks';

/** The project action items land in when their meeting type names none. */
export const MEETINGS_PROJECT = 'Meetings';

/** Tasks are created on behalf of the meeting, not of a person. */
const MEETINGS_ACTOR: ActorContext = {
  userId: 'meetings',
  username: 'meetings',
  role: HumanRole.System,
  sessionId: null,
  mustChangePassword: false,
  department: null,
  via: 'cli',
  expiresAt: Number.MAX_SAFE_INTEGER,
};

/**
 * Turns a completed meeting's action items into tasks assigned to their assignees, through the
 * tasks module's use case (so they are validated, announced and dispatched like any task). An item
 * without an assignee stays in the minutes only; one that cannot be created is logged and skipped.
 */
@Injectable()
export class MeetingActionTasks {
  private readonly log: Logger;

  constructor(
    private readonly tasks: TasksService,
    private readonly projects: ProjectsService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('meetings');
  }

  /** Creates the tasks; answers their ids. */
  async create(type: MeetingType, minutes: MeetingMinutes): Promise<string[]> {
    const items = minutes.actionItems.filter((item) => item.assigneeId !== null);
    if (items.length === 0) {
      return [];
    }
    const project = await this.project(type.project ?? MEETINGS_PROJECT, type.project === null);
    const ids: string[] = [];
    for (const item of items) {
      try {
        const task = await this.tasks.create(MEETINGS_ACTOR, {
          title: item.description.slice(0, 256),
          description: `Action item of the meeting "${type.name}" (${minutes.meetingId}): ${item.description}`,
          type: 'admin',
          priority: item.priority,
          project,
          created_by: 'meetings',
          assigned_to: item.assigneeId,
        });
        ids.push(task.id);
      } catch (error) {
        this.log.warn(
          { err: error, meeting_id: minutes.meetingId, assignee: item.assigneeId },
          'meetings.action_item.not_created',
        );
      }
    }
    this.log.info({ meeting_id: minutes.meetingId, tasks: ids.length }, 'meetings.action_items.created');
    return ids;
  }

  /** The project's id; the default project is created on first use (a concurrent creation wins). */
  private async project(ref: string, createWhenMissing: boolean): Promise<string> {
    try {
      return await this.projects.resolveId(ref);
    } catch (error) {
      if (!(error instanceof NotFoundError) || !createWhenMissing) {
        throw error;
      }
    }
    try {
      return (
        await this.projects.create(MEETINGS_ACTOR, {
          name: ref,
          description: 'Tasks from the action items of meetings',
        })
      ).id;
    } catch (error) {
      if (error instanceof ConflictError) {
        return this.projects.resolveId(ref);
      }
      throw error;
    }
  }
}
