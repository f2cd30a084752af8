import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  agentRetentionDays,
  consolidationPeriodMs,
  decodeVector,
  MEMORY_CATEGORIES,
  parseCategoryRetention,
  planConsolidation,
  type Removal,
  type RemovalReason,
} from '@app/domain';
import type { MemoryEntryEntity } from '@app/persistence';
import {
  DatabaseService,
  DistributedLock,
  ExclusiveSchedule,
  LOGGING_RUNTIME,
  type LoggingRuntime,
} from '@app/platform';

import { AgentRoster } from '../agents';
import { SettingsSnapshot } from '../settings';
import { MemoryService } from './memory.service';

const NS = 'memory';
const LOCK = 'memory.consolidation';

/** What one pass removed, per reason, and how many entries took near-duplicates in (`merged`). */
export type ConsolidationReport = Record<RemovalReason, number> & { agents: number; merged: number };

/**
 * Consolidates agents' memory every `memory.consolidation_interval` (never: not at all), on one
 * replica at a time (a try-lock: a replica finding it held skips that round). Per agent, the pure
 * rules decide what goes (expired, past retention, near-duplicates, beyond the maximum) and the
 * memory service removes it, so every replica's index follows. Archived entries are never touched.
 */
@Injectable()
export class MemoryConsolidation implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log: Logger;
  private readonly schedule: ExclusiveSchedule<ConsolidationReport>;
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly memory: MemoryService,
    private readonly roster: AgentRoster,
    private readonly settings: SettingsSnapshot,
    database: DatabaseService,
    lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('memory.consolidation');
    this.schedule = new ExclusiveSchedule({
      name: LOCK,
      intervalMs: () => consolidationPeriodMs(this.settings.value<string>(NS, 'consolidation_interval')),
      pass: (now) => this.consolidate(now),
      lock,
      database,
      log: this.log,
      failedEvent: 'memory.consolidation.failed',
    });
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
    this.unwatch = this.settings.watch(NS, 'consolidation_interval', () => this.schedule.reschedule());
  }

  onModuleDestroy(): void {
    this.unwatch?.();
    this.schedule.stop();
  }

  /** One pass at `now`; null when another replica holds the pass or the database is not ready. */
  async run(now: Date): Promise<ConsolidationReport | null> {
    const outcome = await this.schedule.runOnce(now);
    return outcome.ran ? outcome.value : null;
  }

  private async consolidate(now: Date): Promise<ConsolidationReport> {
    const started = Date.now();
    const report: ConsolidationReport = {
      agents: 0,
      expired: 0,
      retention: 0,
      duplicate: 0,
      overflow: 0,
      merged: 0,
    };
    const raw = this.settings.value<object | string | null>(NS, 'category_retention_days');
    const categoryRetentionDays = parseCategoryRetention(
      typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {}),
      MEMORY_CATEGORIES,
    );
    const batch = this.settings.value<number>(NS, 'consolidation_enforce_batch_size');
    for (const agentId of await this.memory.agentsWithLiveEntries()) {
      const agent = await this.roster.findByRef(agentId);
      const rows = await this.memory.liveEntries(agentId);
      const removals = planConsolidation(
        rows.map((row) => ({
          id: row.id,
          category: row.category,
          createdAt: row.createdAt,
          expiresAt: row.expiresAt,
          embedder: row.embedder,
          vector: decodeVector(row.embedding),
        })),
        {
          retentionDays:
            (agent ? agentRetentionDays(agent.settings) : null) ??
            this.settings.value<number | null>(NS, 'retention_days'),
          categoryRetentionDays,
          maxEntries: this.settings.value<number>(NS, 'max_memories_per_agent'),
          duplicateThreshold: this.settings.value<number>(NS, 'duplicate_threshold'),
        },
        now,
      );
      report.agents += 1;
      report.merged += await this.merge(rows, removals, now);
      for (let i = 0; i < removals.length; i += batch) {
        const slice = removals.slice(i, i + batch);
        const gone = new Set(
          await this.memory.removeEntries(
            agentId,
            slice.map((r) => r.id),
          ),
        );
        for (const removal of slice.filter((r) => gone.has(r.id))) {
          report[removal.reason] += 1;
        }
      }
    }
    this.log.info({ ...report, ms: Date.now() - started }, 'memory.consolidation.done');
    return report;
  }

  /**
   * Folds each group of near-duplicates into the entry kept for it (newest first), before the folded
   * ones are removed; answers how many kept entries took others in. A kept entry that is itself
   * removed for another reason (beyond the maximum) takes nothing.
   */
  private async merge(rows: readonly MemoryEntryEntity[], removals: readonly Removal[], now: Date): Promise<number> {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const removed = new Set(removals.map((r) => r.id));
    const groups = new Map<string, MemoryEntryEntity[]>();
    for (const removal of removals) {
      const folded = byId.get(removal.id);
      if (removal.reason === 'duplicate' && removal.keptId && folded && !removed.has(removal.keptId)) {
        groups.set(removal.keptId, [...(groups.get(removal.keptId) ?? []), folded]);
      }
    }
    let merged = 0;
    for (const [keptId, folded] of groups) {
      const kept = byId.get(keptId);
      const newestFirst = [...folded].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      if (kept && (await this.memory.mergeInto(kept, newestFirst, now))) {
        merged += 1;
      }
    }
    return merged;
  }
}
