import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, encodeVector } from '@app/domain';
import type { MemoryEmbedderStateEntity, MemoryEntryEntity, OrgFactEntity } from '@app/persistence';
import {
  announce,
  DatabaseService,
  DistributedLock,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  subscribeTo,
} from '@app/platform';

import { SettingsSnapshot } from '../settings';
import { type EmbedderConfig, MemoryEmbedder, sameEmbedder } from './memory-embedder';
import { MemoryRepository } from './memory.repository';
import { MemoryService } from './memory.service';

const NS = 'memory';
const LOCK = 'memory.reembedding';
/** Texts per embedding call. */
const BATCH = 64;
/** How often a replica looks for a re-embedding to take up (one whose worker went away). */
const RETRY_MS = 30_000;
/** Settings whose change may start a re-embedding. */
const EMBEDDER_KEYS = ['embedder_provider', 'embedder_model', 'embedder_dims'] as const;

/** An embedder resolved against the providers: the provider named. */
type Resolved = EmbedderConfig & { provider: string };

/** A re-embedding's progress for `GET /memory/status`. */
export interface ReembeddingProgress {
  /** `idle`: retrieval uses the configured embedder; `running`: stored vectors are being made again. */
  state: 'idle' | 'running';
  done: number;
  total: number;
  /** The embedder retrieval uses (`provider/model/dims`); during a re-embedding, the old one. */
  retrieval: string | null;
  /** The embedder a running re-embedding moves to. */
  target: string | null;
}

const describe = (provider: string | null, model: string | null, dims: number | null): string | null =>
  model ? `${provider ?? '?'}/${model}/${dims ?? 'native'}` : null;

/**
 * Re-embedding: when `memory.embedder_provider`, `embedder_model` or `embedder_dims` change, every
 * stored entry and organisation fact is embedded again by the new embedder, in the background, on one
 * replica at a time (a try-lock), in batches through the embedder (its address checks, call records
 * and, for entries, cost records charged to their agents). The new vectors wait apart
 * (`memory_pending_vectors`) while retrieval goes on with the old ones, queries embedded by the old
 * embedder; when every row has one, one transaction switches the rows over, and every replica
 * rebuilds its index and embeds with the new embedder. The state (`memory_embedder_state`) survives
 * restarts: any replica resumes the work where it stopped.
 */
@Injectable()
export class MemoryReembedding implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log: Logger;
  private readonly cleanups: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly repository: MemoryRepository,
    private readonly embedder: MemoryEmbedder,
    private readonly memory: MemoryService,
    private readonly settings: SettingsSnapshot,
    private readonly database: DatabaseService,
    private readonly lock: DistributedLock,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('memory.reembedding');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.cleanups.push(
      ...EMBEDDER_KEYS.map((key) => this.settings.watch(NS, key, () => void this.check())),
      subscribeTo(this.bus, Channel.Providers, () => void this.check()),
      subscribeTo(this.bus, Channel.Memory, (event) => {
        if (event.origin === 'remote' && event.event_type === 'memory.reembedded') {
          void this.adopt().then(() => this.memory.rebuild());
        }
      }),
    );
    this.timer = setInterval(() => void this.check(), RETRY_MS);
    this.timer.unref();
    await this.adopt();
    void this.check();
  }

  onModuleDestroy(): void {
    this.cleanups.splice(0).forEach((cleanup) => cleanup());
    if (this.timer) {
      clearInterval(this.timer);
    }
  }

  /**
   * Makes this replica's retrieval follow the stored state: the embedder that made the stored vectors
   * (the old one while a re-embedding runs or has yet to start); none stored, the configured one.
   */
  private async adopt(): Promise<MemoryEmbedderStateEntity | null> {
    if (this.database.state !== 'ready') {
      return null;
    }
    const state = await this.repository.embedderState();
    this.embedder.useForRetrieval(state ? { provider: state.provider, model: state.model, dims: state.dims } : null);
    return state;
  }

  /** Resolves when no check is running on this replica (tests). */
  async idle(): Promise<void> {
    while (this.checking) {
      await this.checking;
    }
  }

  /** Progress for the status route (read from the table: the worker may be another replica). */
  async progress(): Promise<ReembeddingProgress> {
    const state = this.database.state === 'ready' ? await this.repository.embedderState() : null;
    if (!state) {
      const configured = this.embedder.configured();
      return {
        state: 'idle',
        done: 0,
        total: 0,
        retrieval: configured ? describe(configured.provider, configured.model, configured.dims) : null,
        target: null,
      };
    }
    return {
      state: state.targetModel ? 'running' : 'idle',
      done: state.done,
      total: state.total,
      retrieval: describe(state.provider, state.model, state.dims),
      target: describe(state.targetProvider, state.targetModel, state.targetDims),
    };
  }

  /**
   * Compares the configured embedder with the one retrieval uses and, under the lock, starts,
   * resumes, cancels or finishes a re-embedding. Calls while one runs make it look again after.
   */
  check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.again = false;
        try {
          await this.lock.tryRunExclusive(LOCK, () => this.reconcile());
          await this.adopt();
        } catch (error) {
          this.log.warn({ err: error }, 'memory.reembedding.paused');
        }
      } while (this.again);
    })().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async reconcile(): Promise<void> {
    if (this.database.state !== 'ready') {
      return;
    }
    const configured = this.embedder.configured();
    const resolved = configured ? this.embedder.state(configured) : null;
    if (!configured || !resolved?.wired) {
      return;
    }
    const target: Resolved = { provider: resolved.provider, model: configured.model, dims: configured.dims };
    const now = new Date();
    let state = await this.repository.embedderState();
    if (!state) {
      // The first embedder wired: retrieval uses it; nothing was made by another one through this table.
      await this.repository.saveEmbedderState({
        ...target,
        ...noTarget(),
        done: 0,
        total: 0,
        startedAt: null,
        updatedAt: now,
      });
      return;
    }
    const retrieval: EmbedderConfig = { provider: state.provider, model: state.model, dims: state.dims };
    if (sameEmbedder(retrieval, target)) {
      if (state.targetModel) {
        // Set back before the work finished: the old vectors are still the rows' own.
        await this.repository.clearPending();
        await this.repository.saveEmbedderState({ ...state, ...noTarget(), updatedAt: now });
        this.log.info(
          { embedder: describe(target.provider, target.model, target.dims) },
          'memory.reembedding.cancelled',
        );
      }
      return;
    }
    const current = state.targetModel
      ? { provider: state.targetProvider, model: state.targetModel, dims: state.targetDims }
      : null;
    if (!current || !sameEmbedder(current, target)) {
      await this.repository.clearPending();
      state = {
        ...state,
        targetProvider: target.provider,
        targetModel: target.model,
        targetDims: target.dims,
        targetMarker: null,
        done: 0,
        total: await this.repository.countToReembed(''),
        startedAt: now,
        updatedAt: now,
      };
      await this.repository.saveEmbedderState(state);
      this.embedder.useForRetrieval(retrieval);
      this.log.info(
        {
          from: describe(retrieval.provider, retrieval.model, retrieval.dims),
          to: describe(target.provider, target.model, target.dims),
          total: state.total,
        },
        'memory.reembedding.started',
      );
    }
    await this.work(state, target);
  }

  /** Embeds what is left in batches, then switches; stops early when the configured embedder changes again. */
  private async work(initial: MemoryEmbedderStateEntity, target: Resolved): Promise<void> {
    let state = initial;
    const save = async (changes: Partial<MemoryEmbedderStateEntity>) => {
      state = { ...state, ...changes, updatedAt: new Date() };
      await this.repository.saveEmbedderState(state);
    };
    // Pass over a list of rows by id cursor: one embedding call per agent of each batch (its cost
    // charged to that agent), saved as it comes.
    const pass = async (kind: 'entry' | 'fact', agentId?: string): Promise<boolean> => {
      let afterId = '';
      for (;;) {
        if (this.again) {
          return false; // The settings changed meanwhile: the next round looks again.
        }
        const rows = await this.repository.toReembed(kind, state.targetMarker ?? '', BATCH, { afterId, agentId });
        if (rows.length === 0) {
          return true;
        }
        afterId = rows[rows.length - 1].id;
        for (const group of byAgent(rows)) {
          const marker = await this.embedGroup(kind, group, target);
          if (state.targetMarker !== null && marker !== state.targetMarker) {
            throw new Error(`the target embedder now makes ${marker} vectors, not ${state.targetMarker}`);
          }
          const done = state.done + group.length;
          await save({ targetMarker: marker, done, total: Math.max(state.total, done) });
        }
      }
    };
    // Agent by agent first (full batches: few calls), then one sweep for what was stored meanwhile.
    for (const agentId of await this.repository.agentsToReembed(state.targetMarker ?? '')) {
      if (!(await pass('entry', agentId))) {
        return;
      }
    }
    if (!(await pass('entry')) || !(await pass('fact'))) {
      return;
    }
    const marker = state.targetMarker;
    if (marker === null) {
      // Nothing was stored: retrieval moves to the target at once.
      await this.repository.saveEmbedderState({
        ...target,
        ...noTarget(),
        done: 0,
        total: 0,
        startedAt: null,
        updatedAt: new Date(),
      });
    } else {
      await this.repository.switchToPending(marker, {
        ...state,
        provider: target.provider,
        model: target.model,
        dims: target.dims,
        ...noTarget(),
        updatedAt: new Date(),
      });
    }
    this.embedder.useForRetrieval(null);
    await announce(this.bus, this.log, {
      channel: Channel.Memory,
      event_type: 'memory.reembedded',
      payload: { id: marker ?? describe(target.provider, target.model, target.dims) ?? '', agent_id: null },
    });
    await this.memory.rebuild();
    this.log.info({ embedder: marker, done: state.done }, 'memory.reembedding.done');
    if (marker !== null) {
      await this.catchUp(marker, target);
    }
  }

  /** Embeds one agent's rows (or facts) by the target and keeps the vectors apart; answers the marker. */
  private async embedGroup(
    kind: 'entry' | 'fact',
    rows: readonly (MemoryEntryEntity | OrgFactEntity)[],
    target: EmbedderConfig,
  ): Promise<string> {
    const agentId = 'agentId' in rows[0] ? rows[0].agentId : null;
    const { vectors, marker } = await this.embedder.embed(
      rows.map((row) => row.content),
      agentId ? { agentId } : null,
      undefined,
      target,
    );
    await this.repository.putPending(
      rows.map((row, i) => ({ kind, id: row.id, embedder: marker, embedding: Buffer.from(encodeVector(vectors[i])) })),
    );
    return marker;
  }

  /**
   * Rows stored with the old embedder by a replica that had not heard of the switch yet: embedded by
   * the new one in place, each announced so every index follows. Bounded: a few rounds of batches.
   */
  private async catchUp(marker: string, target: EmbedderConfig): Promise<void> {
    for (let round = 0; round < 10; round += 1) {
      let changed = 0;
      for (const kind of ['entry', 'fact'] as const) {
        const rows = await this.repository.toReembed(kind, marker, BATCH, { afterId: '' });
        for (const row of rows) {
          const agentId = 'agentId' in row ? row.agentId : null;
          const { vectors, marker: made } = await this.embedder.embed(
            [row.content],
            agentId ? { agentId } : null,
            undefined,
            target,
          );
          await this.repository.setVectors(kind, [
            { id: row.id, embedder: made, embedding: Buffer.from(encodeVector(vectors[0])) },
          ]);
          await this.memory.reindex(kind, row.id);
          changed += 1;
        }
      }
      if (changed === 0) {
        return;
      }
    }
  }
}

/** Rows grouped by agent (facts: one group), in order. */
function byAgent<T extends MemoryEntryEntity | OrgFactEntity>(rows: readonly T[]): T[][] {
  const groups = new Map<string | null, T[]>();
  for (const row of rows) {
    const agentId = 'agentId' in row ? row.agentId : null;
    const group = groups.get(agentId);
    if (group) {
      group.push(row);
    } else {
      groups.set(agentId, [row]);
    }
  }
  return [...groups.values()];
}

function noTarget(): Pick<MemoryEmbedderStateEntity, 'targetProvider' | 'targetModel' | 'targetDims' | 'targetMarker'> {
  return { targetProvider: null, targetModel: null, targetDims: null, targetMarker: null };
}
