import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  ACTIVITY_SOURCE_CAP,
  type ActivityEvent,
  type ActivityEventType,
  clipDescription,
  CompanyProfileReader,
  DEFAULT_ACTIVITY_WINDOW_HOURS,
  DEFAULT_CURRENCY,
  formatMoney,
  LIFECYCLE_EVENT_TYPES,
  Page,
  type PageRequest,
  Permission,
  redactActivityCosts,
  roleHasPermission,
  sortNewestFirst,
} from '@app/domain';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { RunLedger } from '../run-ledger';
import { ActivitySources } from './activity-sources';
import { AgentsRepository } from './agents.repository';

export interface ActivityFilter {
  type?: ActivityEventType;
  agentId?: string;
  /** null: no time window (an agent's own feed), capped per source. */
  lastNHours: number | null;
}

const RUN_EVENT_TYPES = ['task_started', 'task_completed'];
const COST_EVENT_TYPES = ['cost_incurred'];
const TOOL_EVENT_TYPES = ['tool_used'];

/** A source's rows for the page, and how many events it holds. */
interface Sized<R> {
  rows: R[];
  total: number;
}

const NOTHING: Sized<never> = { rows: [], total: 0 };

/** The built-in sources' names in `degraded_sources`; registered sources bring their own. */
type Source = 'performance_tracker' | 'cost_tracker' | 'tool_invocation_tracker' | 'budget_config' | (string & {});

/**
 * The organisation's activity timeline: career events, task runs and model-call costs merged
 * newest first. A failing secondary source is reported in `degraded_sources` while the rest still
 * answers; the career log is the feed's backbone, so its failure fails the request.
 */
@Injectable()
export class ActivitiesService {
  private readonly log: Logger;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly ledger: RunLedger,
    private readonly company: CompanyProfileReader,
    private readonly sources: ActivitySources,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.activity');
  }

  async feed(actor: ActorContext, filter: ActivityFilter, page: PageRequest): Promise<Page<ActivityEvent>> {
    const since =
      filter.lastNHours === null
        ? null
        : new Date(Date.now() - (filter.lastNHours ?? DEFAULT_ACTIVITY_WINDOW_HOURS) * 3_600_000);
    const scope = { since, ...(filter.agentId ? { agentIds: [filter.agentId] } : {}) };
    // Each built-in source is read newest first, so the page needs at most offset + limit of its
    // rows; its size is counted apart (at most ACTIVITY_SOURCE_CAP rows, as the feed has always read).
    const need = Math.min(ACTIVITY_SOURCE_CAP, page.offset + page.limit);
    const degraded: Source[] = [];
    const guarded = async <T>(source: Source, read: () => Promise<T>, fallback: T): Promise<T> => {
      try {
        return await read();
      } catch (error) {
        this.log.warn({ err: error, source }, 'hr.activity.source_failed');
        degraded.push(source);
        return fallback;
      }
    };
    const sized = async <R>(rows: Promise<R[]>, total: Promise<number>): Promise<Sized<R>> => {
      const [read, counted] = await Promise.all([rows, total]);
      return { rows: read, total: counted };
    };

    // A type filter needs only the sources that can produce that type.
    const wants = (types: readonly string[]): boolean => !filter.type || types.includes(filter.type);
    const registered = this.sources.all().filter((source) => wants(source.eventTypes));
    const career = { since, agentId: filter.agentId, eventType: filter.type };
    // Start events alone are read newest by start; otherwise runs are read newest by completion.
    const runsBy = filter.type === 'task_started' ? 'started' : 'completed';
    const runEvents = async (): Promise<number> => {
      const { completed, started } = await this.ledger.countRunEvents(scope, ACTIVITY_SOURCE_CAP);
      return filter.type === 'task_started'
        ? started
        : filter.type === 'task_completed'
          ? completed
          : completed + started;
    };
    const [lifecycle, metrics, costs, tools, currency, contributed] = await Promise.all([
      wants(LIFECYCLE_EVENT_TYPES)
        ? sized(this.agents.newestLifecycle(career, need), this.agents.countLifecycle(career, ACTIVITY_SOURCE_CAP))
        : NOTHING,
      wants(RUN_EVENT_TYPES)
        ? guarded(
            'performance_tracker',
            () => sized(this.ledger.newestMetrics(scope, need, runsBy), runEvents()),
            NOTHING,
          )
        : NOTHING,
      wants(COST_EVENT_TYPES)
        ? guarded(
            'cost_tracker',
            () => sized(this.ledger.newestCosts(scope, need), this.ledger.countCosts(scope, ACTIVITY_SOURCE_CAP)),
            NOTHING,
          )
        : NOTHING,
      wants(TOOL_EVENT_TYPES)
        ? guarded(
            'tool_invocation_tracker',
            () => sized(this.ledger.newestTools(scope, need), this.ledger.countTools(scope, ACTIVITY_SOURCE_CAP)),
            NOTHING,
          )
        : NOTHING,
      wants([...RUN_EVENT_TYPES, ...COST_EVENT_TYPES])
        ? guarded('budget_config', () => this.company.currency(), DEFAULT_CURRENCY)
        : DEFAULT_CURRENCY,
      Promise.all(registered.map((source) => guarded(source.name, () => source.read(since, filter.agentId), []))),
    ]);

    const events: ActivityEvent[] = [];
    for (const e of lifecycle.rows) {
      events.push({
        event_type: e.eventType as ActivityEventType,
        timestamp: e.timestamp.toISOString(),
        description: clipDescription(e.details || `Agent ${e.eventType}`),
        related_ids: { agent_id: e.agentId },
      });
    }
    for (const m of metrics.rows) {
      const ids = { task_id: m.taskId, agent_id: m.agentId };
      if (m.startedAt && (!since || m.startedAt >= since)) {
        events.push({
          event_type: 'task_started',
          timestamp: m.startedAt.toISOString(),
          description: `Task ${m.taskId} started`,
          related_ids: ids,
        });
      }
      const outcome = m.isSuccess ? 'succeeded' : 'failed';
      events.push({
        event_type: 'task_completed',
        timestamp: m.completedAt.toISOString(),
        description: clipDescription(
          `Task ${m.taskId} ${outcome} (${m.durationSeconds.toFixed(1)}s, ${formatMoney(m.costUsd, currency)})`,
        ),
        related_ids: ids,
      });
    }
    for (const c of costs.rows) {
      events.push({
        event_type: 'cost_incurred',
        timestamp: c.timestamp.toISOString(),
        description: clipDescription(
          `API call to ${c.model} (${c.inputTokens}+${c.outputTokens} tokens, ${formatMoney(c.costUsd, currency)})`,
        ),
        related_ids: { agent_id: c.agentId, ...(c.taskId ? { task_id: c.taskId } : {}) },
      });
    }

    for (const call of tools.rows) {
      events.push({
        event_type: 'tool_used',
        timestamp: call.timestamp.toISOString(),
        description: clipDescription(
          call.success ? `Tool ${call.toolName} executed successfully` : `Tool ${call.toolName} failed`,
        ),
        related_ids: { agent_id: call.agentId, ...(call.taskId ? { task_id: call.taskId } : {}) },
      });
    }

    const others = contributed.flat().filter((e) => !filter.type || e.event_type === filter.type);
    events.push(...others);

    const total = lifecycle.total + metrics.total + costs.total + tools.total + others.length;
    const newest = sortNewestFirst(filter.type ? events.filter((e) => e.event_type === filter.type) : events);
    const items = newest.slice(page.offset, page.offset + page.limit);
    const visible = roleHasPermission(actor.role, Permission.Write) ? items : items.map(redactActivityCosts);
    return new Page(visible, total, page.offset, page.limit, [...new Set(degraded)]);
  }
}
