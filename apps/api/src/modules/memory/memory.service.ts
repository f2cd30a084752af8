import { randomUUID } from 'node:crypto';

import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  AppError,
  Channel,
  encodeVector,
  ErrorCode,
  type MemoryCategory,
  type MemoryLevel,
  memoryLevelOf,
  mergeDuplicates,
  NotFoundError,
  type OrgFactCategory,
  packWithinBudget,
  rankMemories,
  RANKING,
  redactSecrets,
  Subsystem,
} from '@app/domain';
import type { AgentEntity, MemoryEntryEntity, OrgFactEntity, TaskEntity } from '@app/persistence';
import {
  announce,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  SubsystemRegistry,
  subscribeTo,
} from '@app/platform';

import { type FinishedRun, RunMemory, type RunMemoryPort } from '../engine';
import { SettingsSnapshot } from '../settings';
import { type EmbedCharge, MemoryEmbedder } from './memory-embedder';
import { type Hit, type IndexedEntry, MemoryIndex } from './memory-index';
import { MemoryRepository } from './memory.repository';

const NS = 'memory';
/** Longest stored entry; longer content is cut (a memory is a note, not a transcript). */
export const MAX_ENTRY_CHARS = 2_000;
/** Characters of a run's final answer kept in its episodic entry. */
const EPISODE_ANSWER_CHARS = 600;
/** Candidates read from the index before ranking. */
const CANDIDATES = 100;
/** Settings whose change re-evaluates the embedder. */
const EMBEDDER_KEYS = ['backend', 'embedder_provider', 'embedder_model', 'embedder_dims'] as const;

/** What a caller asks to store. */
export interface NewMemory {
  category: MemoryCategory;
  content: string;
  metadata?: Record<string, string | number | boolean | null>;
  /** The task and project it came from; the level decides whether they scope its retrieval. */
  task?: { id: string; project: string } | null;
}

/** A search result: the entry row and its relevance. */
export interface ScoredEntry {
  entry: IndexedEntry;
  relevance: number;
}

/**
 * Agents' memory (engine.md §14): entries in the database, this replica's exact vector index over
 * them, the memory message at a run's start and the episodic entry at its end. Wired only while an
 * embedding model resolves (startup rule 8): otherwise one ERROR says why and runs go on without it.
 */
@Injectable()
export class MemoryService implements OnApplicationBootstrap, OnModuleDestroy, RunMemoryPort {
  private readonly log: Logger;
  private readonly index = new MemoryIndex();
  private readonly cleanups: (() => void)[] = [];
  /** The reason last logged for being unwired, so a settings change logs it once, not per call. */
  private unwiredReason: string | null = null;
  private rebuilding: Promise<void> | null = null;
  /**
   * The first build of the index: started at bootstrap but not awaited there, so a large store (a
   * million entries read in a minute or more) never holds the server's start past its startup probe;
   * searches wait for it instead.
   */
  private loaded: Promise<void> = Promise.resolve();
  /** Changes made while a rebuild reads the tables, replayed onto what it read before it is swapped in. */
  private journal: ((index: MemoryIndex) => void)[] | null = null;

  constructor(
    private readonly repository: MemoryRepository,
    private readonly embedder: MemoryEmbedder,
    private readonly settings: SettingsSnapshot,
    private readonly runMemory: RunMemory,
    private readonly bus: EventBus,
    private readonly subsystems: SubsystemRegistry,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('memory');
  }

  onApplicationBootstrap(): void {
    this.cleanups.push(
      this.runMemory.use(this),
      subscribeTo(this.bus, Channel.Memory, (event) => {
        if (event.origin === 'remote') {
          this.applyRemote(event.event_type, event.payload.id).catch((error: unknown) =>
            this.log.error({ err: error }, 'memory.index.update_failed'),
          );
        }
      }),
      subscribeTo(this.bus, Channel.Backup, (event) => {
        if (event.payload.components.includes('memory') || event.payload.components.includes('persistence')) {
          void this.rebuild();
        }
      }),
      ...EMBEDDER_KEYS.map((key) => this.settings.watch(NS, key, () => this.evaluate())),
      subscribeTo(this.bus, Channel.Providers, () => this.evaluate()),
    );
    this.evaluate();
    this.loaded = this.rebuild();
  }

  onModuleDestroy(): void {
    this.cleanups.splice(0).forEach((cleanup) => cleanup());
  }

  /** Marks the memory subsystem wired or not; a new reason for being unwired is one ERROR line. */
  private evaluate(): void {
    const state = this.embedder.state();
    if (state.wired) {
      if (this.unwiredReason !== null || !this.subsystems.isWired(Subsystem.Memory)) {
        this.log.info({ provider: state.provider, model: state.model }, 'memory.backend.wired');
      }
      this.unwiredReason = null;
      this.subsystems.markWired(Subsystem.Memory, `${state.provider}/${state.model}`);
      return;
    }
    this.subsystems.markUnwired(Subsystem.Memory, state.reason);
    if (this.unwiredReason !== state.reason) {
      this.unwiredReason = state.reason;
      this.log.error(
        { reason: state.reason, code: state.code, provider: state.provider, model: state.model },
        'memory.backend.unwired',
      );
    }
  }

  /** Applies a change to the index (and to the one being rebuilt, if any). */
  private change(apply: (index: MemoryIndex) => void): void {
    apply(this.index);
    this.journal?.push(apply);
  }

  /** Reads every entry and fact into a fresh index (startup, restore). */
  rebuild(): Promise<void> {
    this.rebuilding ??= (async () => {
      const started = Date.now();
      this.journal = [];
      try {
        const next = new MemoryIndex();
        await this.repository.forEachEntry((rows) => rows.forEach((row) => next.putRow(row)));
        for (const fact of await this.repository.allFacts()) {
          next.putFactRow(fact);
        }
        this.journal.forEach((apply) => apply(next));
        next.compact();
        this.index.replaceWith(next);
        this.log.info(
          { entries: this.index.size, facts: this.index.factCount, ms: Date.now() - started },
          'memory.index.rebuilt',
        );
      } catch (error) {
        this.log.error({ err: error }, 'memory.index.rebuild_failed');
      } finally {
        this.journal = null;
        this.rebuilding = null;
      }
    })();
    return this.rebuilding;
  }

  private async applyRemote(type: string, id: string): Promise<void> {
    switch (type) {
      case 'memory.created':
      case 'memory.updated': {
        const row = await this.repository.find(id);
        if (row) {
          this.change((index) => index.putRow(row));
        }
        return;
      }
      case 'memory.deleted':
        this.change((index) => index.remove(id));
        return;
      case 'memory.fact_created': {
        const fact = await this.repository.findFact(id);
        if (fact) {
          this.change((index) => index.putFactRow(fact));
        }
        return;
      }
      case 'memory.fact_deleted':
        this.change((index) => index.removeFact(id));
        return;
    }
  }

  /** Reads an entry (or fact) again into the index and tells the other replicas (its vector was made again). */
  async reindex(kind: 'entry' | 'fact', id: string): Promise<void> {
    if (kind === 'entry') {
      const row = await this.repository.find(id);
      if (row) {
        this.change((index) => index.putRow(row));
        await announce(this.bus, this.log, {
          channel: Channel.Memory,
          event_type: 'memory.updated',
          payload: { id, agent_id: row.agentId },
        });
      }
      return;
    }
    const fact = await this.repository.findFact(id);
    if (fact) {
      this.change((index) => index.putFactRow(fact));
      await announce(this.bus, this.log, {
        channel: Channel.Memory,
        event_type: 'memory.fact_created',
        payload: { id, agent_id: null },
      });
    }
  }

  /** The backend's state for GET /memory/status. */
  async status(): Promise<{
    state: ReturnType<MemoryEmbedder['state']>;
    backend: string;
    entries: number;
    facts: number;
    indexed: number;
  }> {
    const counts = await this.repository.counts();
    const configured = this.settings.value<string | null>(NS, 'backend') ?? 'embedded';
    return {
      state: this.embedder.state(),
      // `mem0`, the reference's name, is an alias of this service's own store: say which store it is.
      backend: configured === 'mem0' ? 'embedded' : configured,
      entries: counts.entries,
      facts: counts.facts,
      indexed: this.index.size,
    };
  }

  levelOf(agent: { settings: unknown }): MemoryLevel {
    return memoryLevelOf(agent.settings, this.settings.value<MemoryLevel>(NS, 'default_level'));
  }

  /** Whether the memory tools are offered to the agent: a backend is wired and the agent keeps memory. */
  offersTools(agent: { settings: unknown }): boolean {
    return this.subsystems.isWired(Subsystem.Memory) && this.levelOf(agent) !== 'none';
  }

  /**
   * Stores an entry for the agent at its level (none stores nothing: null). The content passes the
   * output scanner's redaction first, so a secret never becomes a memory.
   */
  async store(agent: AgentEntity, memory: NewMemory, charge: EmbedCharge): Promise<MemoryEntryEntity | null> {
    const level = this.levelOf(agent);
    if (level === 'none') {
      return null;
    }
    const content = redactSecrets(memory.content.trim()).text.slice(0, MAX_ENTRY_CHARS);
    const { vectors, marker } = await this.embedder.embed([content], charge);
    const row: MemoryEntryEntity = {
      id: randomUUID(),
      agentId: agent.id,
      category: memory.category,
      level,
      project: memory.task?.project ?? null,
      taskId: memory.task?.id ?? null,
      content,
      metadata: memory.metadata ?? {},
      embedder: marker,
      archiveId: null,
      createdAt: new Date(),
      updatedAt: null,
      expiresAt: null,
      embedding: Buffer.from(encodeVector(vectors[0])),
    };
    await this.repository.insert(row);
    this.change((index) => index.putRow(row));
    await announce(this.bus, this.log, {
      channel: Channel.Memory,
      event_type: 'memory.created',
      payload: { id: row.id, agent_id: agent.id },
    });
    return row;
  }

  /** The agent's entries most relevant to the query, best first (the API's and the recall tool's search). */
  async search(
    agent: AgentEntity,
    query: string,
    options: { limit: number; category?: string; scope?: { taskId: string; project: string } },
    charge: EmbedCharge,
  ): Promise<ScoredEntry[]> {
    const text = query.trim();
    if (text === '') {
      throw new AppError(ErrorCode.MemoryQueryInvalid, 'the query is empty', false, { httpStatus: 400 });
    }
    const { vectors, marker } = await this.embedder.embed([text], charge);
    await this.loaded;
    const now = Date.now();
    const hits = this.index.search(agent.id, vectors[0], marker, options.limit, {
      category: options.category,
      scope: options.scope,
      now,
    });
    return hits.map((hit) => ({ entry: hit.item, relevance: hit.relevance }));
  }

  async delete(agent: AgentEntity, id: string): Promise<void> {
    const row = await this.repository.find(id);
    if (!row || row.agentId !== agent.id) {
      throw new NotFoundError(`agent ${agent.name} has no memory ${id}`, ErrorCode.MemoryEntryNotFound);
    }
    if (row.archiveId !== null) {
      throw new AppError(ErrorCode.MemoryEntryArchived, `memory ${id} is archived (read-only)`);
    }
    await this.repository.delete(id);
    this.change((index) => index.remove(id));
    await announce(this.bus, this.log, {
      channel: Channel.Memory,
      event_type: 'memory.deleted',
      payload: { id, agent_id: agent.id },
    });
  }

  /**
   * Removes entries found by consolidation (archived ones stay: they are read-only) from the table
   * and every replica's index (one `memory.deleted` each); answers the ids that went.
   */
  async removeEntries(agentId: string, ids: readonly string[]): Promise<string[]> {
    const gone = await this.repository.deleteLive(ids);
    for (const id of gone) {
      this.change((index) => index.remove(id));
      await announce(this.bus, this.log, {
        channel: Channel.Memory,
        event_type: 'memory.deleted',
        payload: { id, agent_id: agentId },
      });
    }
    return gone;
  }

  /**
   * Folds near-duplicates into the entry kept for them (consolidation): the kept entry takes the
   * merged content and metadata ({@link mergeDuplicates}) in the table and every replica's index
   * (`memory.updated`), its vector staying (the entries were near-identical). The folded ones are
   * removed by the caller. False when the kept entry is gone or archived.
   */
  async mergeInto(kept: MemoryEntryEntity, folded: readonly MemoryEntryEntity[], now: Date): Promise<boolean> {
    const merged = mergeDuplicates(kept, folded, MAX_ENTRY_CHARS, now);
    const metadata = merged.metadata as MemoryEntryEntity['metadata'];
    if (!(await this.repository.updateLive(kept.id, merged.content, metadata, now))) {
      return false;
    }
    const row: MemoryEntryEntity = { ...kept, content: merged.content, metadata, updatedAt: now };
    this.change((index) => index.putRow(row));
    await announce(this.bus, this.log, {
      channel: Channel.Memory,
      event_type: 'memory.updated',
      payload: { id: kept.id, agent_id: kept.agentId },
    });
    this.log.info(
      { id: kept.id, agent_id: kept.agentId, merged_from: folded.map((f) => f.id) },
      'memory.consolidation.merged',
    );
    return true;
  }

  /** The agent's entries not archived, oldest first (consolidation's input). */
  liveEntries(agentId: string): Promise<MemoryEntryEntity[]> {
    return this.repository.unarchived(agentId);
  }

  agentsWithLiveEntries(): Promise<string[]> {
    return this.repository.agentsWithLiveEntries();
  }

  /**
   * Stores an organisation fact (one writer: this service). The caller checked who may write it; the
   * content is redacted like every memory.
   */
  async storeFact(fact: {
    /** The fact's id when the caller fixes it (a proposal: its approval item's id); else a new one. */
    id?: string;
    category: OrgFactCategory;
    content: string;
    department: string | null;
    author: string;
  }): Promise<OrgFactEntity> {
    const content = redactSecrets(fact.content.trim()).text.slice(0, MAX_ENTRY_CHARS);
    const { vectors, marker } = await this.embedder.embed([content], null);
    const row: OrgFactEntity = {
      id: fact.id ?? randomUUID(),
      category: fact.category,
      content,
      department: fact.department,
      author: fact.author.slice(0, 200),
      embedder: marker,
      createdAt: new Date(),
      embedding: Buffer.from(encodeVector(vectors[0])),
    };
    await this.repository.insertFact(row);
    this.change((index) => index.putFactRow(row));
    await announce(this.bus, this.log, {
      channel: Channel.Memory,
      event_type: 'memory.fact_created',
      payload: { id: row.id, agent_id: null },
    });
    return row;
  }

  async findFact(id: string): Promise<OrgFactEntity> {
    const fact = await this.repository.findFact(id);
    if (!fact) {
      throw new NotFoundError(`no organisation fact ${id}`, ErrorCode.OrgFactNotFound);
    }
    return fact;
  }

  async deleteFact(id: string): Promise<void> {
    if (!(await this.repository.deleteFact(id))) {
      throw new NotFoundError(`no organisation fact ${id}`, ErrorCode.OrgFactNotFound);
    }
    this.change((index) => index.removeFact(id));
    await announce(this.bus, this.log, {
      channel: Channel.Memory,
      event_type: 'memory.fact_deleted',
      payload: { id, agent_id: null },
    });
  }

  /**
   * Offboarding: archives the agent's memory read-only under `archiveId` and promotes its semantic and
   * procedural entries to organisation facts (their vectors carried over, no model call). Null when
   * there is nothing to archive and no backend. Resumable: entries already archived are left alone.
   */
  async archiveAgent(
    agent: { id: string; name: string; department: string },
    archiveId: string,
  ): Promise<{ archived: number; promoted: number } | null> {
    const entries = await this.repository.unarchived(agent.id);
    if (entries.length === 0 && !this.embedder.state().wired) {
      return null;
    }
    const now = new Date();
    const facts: OrgFactEntity[] = entries
      .filter((e) => e.category === 'semantic' || e.category === 'procedural')
      .map((e) => ({
        id: randomUUID(),
        category: e.category === 'procedural' ? 'procedure' : 'convention',
        content: e.content,
        department: agent.department,
        author: `agent:${agent.name}`.slice(0, 200),
        embedder: e.embedder,
        createdAt: now,
        embedding: e.embedding,
      }));
    await this.repository.archive(
      entries.map((e) => e.id),
      archiveId,
      facts,
    );
    for (const fact of facts) {
      this.change((index) => index.putFactRow(fact));
      await announce(this.bus, this.log, {
        channel: Channel.Memory,
        event_type: 'memory.fact_created',
        payload: { id: fact.id, agent_id: agent.id },
      });
    }
    this.log.info(
      { agent_id: agent.id, archive_id: archiveId, archived: entries.length, promoted: facts.length },
      'memory.agent.archived',
    );
    return { archived: entries.length, promoted: facts.length };
  }

  factPage(offset: number, limit: number, category?: string): ReturnType<MemoryRepository['factPage']> {
    return this.repository.factPage(offset, limit, category);
  }

  page(query: Parameters<MemoryRepository['page']>[0]): ReturnType<MemoryRepository['page']> {
    return this.repository.page(query);
  }

  /**
   * The memory message of a run's first call: the agent's entries in scope for the task and the org
   * facts, ranked (§14), packed within `memory.retrieval_token_budget`; null when nothing qualifies,
   * the agent keeps no memory, or no embedder is wired.
   */
  async recall(agent: AgentEntity, task: TaskEntity, signal: AbortSignal): Promise<string | null> {
    if (this.levelOf(agent) === 'none' || !this.embedder.state().wired) {
      return null;
    }
    try {
      const query = `${task.title}\n${task.description}`;
      const { vectors, marker } = await this.embedder.embed([query], { task, agent }, signal);
      await this.loaded;
      return this.compose(agent, task, vectors[0], marker);
    } catch (error) {
      this.log.warn({ err: error, task_id: task.id }, 'memory.recall.failed');
      return null;
    }
  }

  /** Ranks and packs what the index holds for the task's query vector (no model call: the bench's path). */
  compose(agent: AgentEntity, task: TaskEntity, query: Float32Array, marker: string): string | null {
    const now = new Date();
    const scope = { taskId: task.id, project: task.project };
    const minRelevance = RANKING.minScore;
    const candidates: { line: string; relevance: number; createdAt: Date; personal: boolean }[] = [];
    const personal = this.index.search(agent.id, query, marker, CANDIDATES, { scope, now: now.getTime() });
    const facts = this.index.searchFacts(query, marker, CANDIDATES);
    const relevant = <T>(hits: Hit<T>[]) => hits.filter((h) => h.relevance >= minRelevance);
    for (const hit of relevant(personal)) {
      candidates.push({
        line: `- [${hit.item.category}, ${hit.item.createdAt.toISOString().slice(0, 10)}] ${hit.item.content}`,
        relevance: hit.relevance,
        createdAt: hit.item.createdAt,
        personal: true,
      });
    }
    for (const hit of relevant(facts)) {
      candidates.push({
        line: `- [organisation ${hit.item.category}] ${hit.item.content}`,
        relevance: hit.relevance,
        createdAt: hit.item.createdAt,
        personal: false,
      });
    }
    const ranked = rankMemories(candidates, now);
    const packed = packWithinBudget(ranked, (c) => c.line, this.settings.value<number>(NS, 'retrieval_token_budget'));
    if (packed.length === 0) {
      return null;
    }
    return [
      'Memory: what you recorded in earlier work, and organisation facts, most relevant first. Use what helps; it may be out of date.',
      ...packed.map((c) => c.line),
    ].join('\n');
  }

  /** The episodic entry of a finished run: the task, its outcome and what it produced, kept short. */
  remember(run: FinishedRun): void {
    if (this.levelOf(run.agent) === 'none' || !this.embedder.state().wired) {
      return;
    }
    const answer = run.finalContent.trim().slice(0, EPISODE_ANSWER_CHARS);
    const outcome =
      run.reason === 'completed' ? 'completed' : `ended ${run.reason}${run.detail ? ` (${run.detail})` : ''}`;
    const content = [`Task "${run.task.title}" ${outcome}.`, answer ? `Result: ${answer}` : null]
      .filter((part): part is string => part !== null)
      .join(' ');
    this.store(
      run.agent,
      {
        category: 'episodic',
        content,
        metadata: { task_id: run.task.id, outcome: run.reason, task_type: run.task.type },
        task: { id: run.task.id, project: run.task.project },
      },
      { agentId: run.agent.id, taskId: run.task.id },
    ).catch((error: unknown) => this.log.warn({ err: error, task_id: run.task.id }, 'memory.episode.not_stored'));
  }
}
