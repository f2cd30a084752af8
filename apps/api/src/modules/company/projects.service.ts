import { randomBytes } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  ConflictError,
  ErrorCode,
  INITIAL_PROJECT_STATUS,
  nameKey,
  NotFoundError,
  Page,
  type PageRequest,
  parseProjectStatus,
  ValidationError,
} from '@app/domain';
import { type ProjectEntity, rawIso, rawJson, rawNumber } from '@app/persistence';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import type { CreateProjectDto, ProjectDto } from './dto/project.dto';
import { type ProjectRow, ProjectsRepository } from './projects.repository';

/** Projects: a named body of work with a team of agents, a lead and a budget. */
@Injectable()
export class ProjectsService {
  private readonly log: Logger;

  constructor(
    private readonly projects: ProjectsRepository,
    private readonly agents: AgentRoster,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('projects');
  }

  async list(filter: { status?: string; lead?: string }, page: PageRequest): Promise<Page<ProjectDto>> {
    const status = filter.status === undefined ? undefined : parseProjectStatus(filter.status);
    const { items, total } = await this.projects.page({ status, lead: filter.lead }, page);
    return new Page(items.map(toProjectFromRow), total, page.offset, page.limit);
  }

  async get(id: string): Promise<ProjectDto> {
    const row = await this.projects.findById(id);
    if (!row) {
      throw new NotFoundError(`Project "${id}" not found`, ErrorCode.ProjectNotFound);
    }
    return toProject(row);
  }

  /** A project's id from its id or (case-insensitive) name. */
  async resolveId(ref: string): Promise<string> {
    const row = (await this.projects.findById(ref)) ?? (await this.projects.findByName(nameKey(ref)));
    if (!row) {
      throw new NotFoundError(`Project "${ref}" not found`, ErrorCode.ProjectNotFound);
    }
    return row.id;
  }

  async create(actor: ActorContext, dto: CreateProjectDto): Promise<ProjectDto> {
    const name = dto.name.trim();
    if (name.length === 0) {
      throw new ValidationError('name: must not be blank', ErrorCode.RequestValidationError);
    }
    const key = nameKey(name);
    if (await this.projects.findByName(key)) {
      throw new ConflictError(`A project named "${name}" already exists`, ErrorCode.DuplicateRecord);
    }
    // A null lead is no lead, as an absent one (the validator lets null through an optional field).
    const lead = dto.lead === undefined || dto.lead === null ? null : await this.agentId(dto.lead, 'lead');
    const team: string[] = [];
    for (const member of dto.team ?? []) {
      const id = await this.agentId(member, 'team');
      if (!team.includes(id)) {
        team.push(id);
      }
    }
    if (lead && !team.includes(lead)) {
      team.unshift(lead);
    }
    const now = new Date();
    const row: ProjectEntity = {
      id: `proj-${randomBytes(6).toString('hex')}`,
      name,
      nameKey: key,
      description: dto.description ?? '',
      team,
      lead,
      taskIds: [],
      deadline: dto.deadline ?? null,
      budget: dto.budget ?? 0,
      status: INITIAL_PROJECT_STATUS,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.projects.insert(row);
    } catch (error) {
      if (await this.projects.findByName(key)) {
        throw new ConflictError(`A project named "${name}" already exists`, ErrorCode.DuplicateRecord);
      }
      throw error;
    }
    const project = toProject(row);
    this.log.info({ actor: actor.username, project_id: row.id, name }, 'projects.project.created');
    await announce(this.bus, this.log, {
      channel: Channel.Projects,
      event_type: 'project.created',
      payload: { project },
    });
    return project;
  }

  private async agentId(ref: string, field: string): Promise<string> {
    const agent = await this.agents.findByRef(ref);
    if (!agent) {
      throw new ValidationError(`${field}: no agent "${ref}" on the roster`, ErrorCode.RequestValidationError);
    }
    return agent.id;
  }
}

function toProject(row: ProjectEntity): ProjectDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    team: row.team,
    lead: row.lead,
    task_ids: row.taskIds,
    deadline: row.deadline,
    budget: row.budget,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A raw list row as the API shows it: the same as {@link toProject} of the entity. */
function toProjectFromRow(row: ProjectRow): ProjectDto {
  return {
    id: row.id as string,
    name: row.name as string,
    description: row.description as string,
    team: rawJson(row.team),
    lead: row.lead as string | null,
    task_ids: rawJson(row.task_ids),
    deadline: row.deadline as string | null,
    budget: rawNumber(row.budget),
    status: row.status as string,
    created_at: rawIso(row.created_at),
    updated_at: rawIso(row.updated_at),
  };
}
