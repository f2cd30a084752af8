import { Injectable } from '@nestjs/common';

import { ErrorCode, ForbiddenError, HumanRole, NotFoundError, type OrgFactCategory, Page } from '@app/domain';
import type { AgentEntity, MemoryEntryEntity, OrgFactEntity } from '@app/persistence';
import type { ActorContext } from '@app/platform';

import { AgentRoster } from '../agents';
import type {
  CreateOrgFactDto,
  MemoryEntryDto,
  MemoryQueryDto,
  MemorySearchDto,
  MemoryStatusDto,
  OrgFactDto,
  OrgFactQueryDto,
} from './dto/memory.dto';
import type { IndexedEntry } from './memory-index';
import { MemoryReembedding } from './memory-reembedding';
import { MemoryService } from './memory.service';

/** The use cases behind the memory routes: find the agent, then ask the memory service. */
@Injectable()
export class MemoryApi {
  constructor(
    private readonly memory: MemoryService,
    private readonly agents: AgentRoster,
    private readonly reembedding: MemoryReembedding,
  ) {}

  async status(): Promise<MemoryStatusDto> {
    const [{ state, backend, entries, facts, indexed }, progress] = await Promise.all([
      this.memory.status(),
      this.reembedding.progress(),
    ]);
    return {
      wired: state.wired,
      reason: state.wired ? null : state.reason,
      code: state.wired ? null : state.code,
      backend,
      embedder_provider: state.provider,
      embedder_model: state.model,
      embedder_dims: state.dims,
      entries,
      org_facts: facts,
      indexed,
      reembedding: {
        state: progress.state,
        done: progress.done,
        total: progress.total,
        retrieval_embedder: progress.retrieval,
        target_embedder: progress.target,
      },
    };
  }

  async list(name: string, query: MemoryQueryDto): Promise<Page<MemoryEntryDto>> {
    const agent = await this.agentOrThrow(name);
    const { rows, total } = await this.memory.page({
      agentId: agent.id,
      category: query.category,
      project: query.project,
      offset: query.offset,
      limit: query.limit,
    });
    return new Page(rows.map(toDto), total, query.offset, query.limit);
  }

  async search(name: string, dto: MemorySearchDto): Promise<MemoryEntryDto[]> {
    const agent = await this.agentOrThrow(name);
    const hits = await this.memory.search(
      agent,
      dto.query,
      { limit: dto.limit ?? 10, category: dto.category },
      { agentId: agent.id },
    );
    return hits.map((hit) => ({ ...indexedToDto(hit.entry), relevance_score: round(hit.relevance) }));
  }

  async delete(name: string, id: string): Promise<void> {
    await this.memory.delete(await this.agentOrThrow(name), id);
  }

  async listFacts(query: OrgFactQueryDto): Promise<Page<OrgFactDto>> {
    const { rows, total } = await this.memory.factPage(query.offset, query.limit, query.category);
    return new Page(rows.map(toFactDto), total, query.offset, query.limit);
  }

  /** The CEO writes any fact (company-wide without a department); a manager only their department's. */
  async createFact(actor: ActorContext, dto: CreateOrgFactDto): Promise<OrgFactDto> {
    let department = dto.department ?? null;
    if (actor.role !== HumanRole.Ceo) {
      if (actor.department === null || (department !== null && department !== actor.department)) {
        throw new ForbiddenError('Managers write organisation facts of their own department only');
      }
      department = actor.department;
    }
    const row = await this.memory.storeFact({
      category: dto.category as OrgFactCategory,
      content: dto.content,
      department,
      author: actor.username,
    });
    return toFactDto(row);
  }

  async deleteFact(actor: ActorContext, id: string): Promise<void> {
    const fact = await this.memory.findFact(id);
    if (actor.role !== HumanRole.Ceo && (actor.department === null || fact.department !== actor.department)) {
      throw new ForbiddenError('Managers delete organisation facts of their own department only');
    }
    await this.memory.deleteFact(id);
  }

  private async agentOrThrow(name: string): Promise<AgentEntity> {
    const agent = await this.agents.findByRef(name);
    if (!agent) {
      throw new NotFoundError(`no agent named ${name}`, ErrorCode.AgentNotFound);
    }
    return agent;
  }
}

function toFactDto(row: OrgFactEntity): OrgFactDto {
  return {
    id: row.id,
    category: row.category,
    content: row.content,
    department: row.department,
    author: row.author,
    created_at: row.createdAt.toISOString(),
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function toDto(row: MemoryEntryEntity): MemoryEntryDto {
  return {
    id: row.id,
    agent_id: row.agentId,
    category: row.category,
    level: row.level,
    content: row.content,
    metadata: row.metadata,
    project: row.project,
    task_id: row.taskId,
    archive_id: row.archiveId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/** A search hit rendered from the index (the metadata stays in the table: the list route shows it). */
function indexedToDto(entry: IndexedEntry): MemoryEntryDto {
  return {
    id: entry.id,
    agent_id: entry.agentId,
    category: entry.category,
    level: entry.level,
    content: entry.content,
    metadata: {},
    project: entry.project,
    task_id: entry.taskId,
    archive_id: null,
    created_at: entry.createdAt.toISOString(),
    updated_at: null,
    expires_at: entry.expiresAt?.toISOString() ?? null,
  };
}
