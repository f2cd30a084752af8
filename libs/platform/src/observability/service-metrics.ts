import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Reads a figure at scrape time (a count, a pool's state); a failing or slow one is skipped. */
export type ScrapeHook = () => void | Promise<void>;

/** How long one scrape hook may take before the scrape goes on without it. */
const HOOK_TIMEOUT_MS = 2_000;

/** Request and run durations, in seconds: 5 ms to 10 s for requests, 0.1 s to 30 min for runs. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RUN_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800];
const CALL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TOOL_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1, 5, 15, 60];
const DECISION_BUCKETS = [1, 10, 60, 300, 900, 3600, 4 * 3600, 24 * 3600, 7 * 24 * 3600];
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The service's Prometheus metrics: one registry per application instance (several may share a
 * process in tests), the process's default metrics, and the figures modules feed. Labels are bounded
 * sets (route templates, statuses, outcomes, provider and model names, tool names, verdicts): never a
 * task, agent, user or request id.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly hooks = new Map<string, ScrapeHook>();

  readonly httpDuration = new Histogram({
    name: 'synthorg_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  readonly runs = new Counter({
    name: 'synthorg_runs_total',
    help: 'Agent runs finished on this replica, by outcome (termination reason)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly runDuration = new Histogram({
    name: 'synthorg_run_duration_seconds',
    help: 'Duration of agent runs, by outcome',
    labelNames: ['outcome'] as const,
    buckets: RUN_BUCKETS,
    registers: [this.registry],
  });

  readonly modelCalls = new Counter({
    name: 'synthorg_model_calls_total',
    help: 'Model provider calls, by provider, model, kind and result',
    labelNames: ['provider', 'model', 'kind', 'result'] as const,
    registers: [this.registry],
  });

  readonly modelCallDuration = new Histogram({
    name: 'synthorg_model_call_duration_seconds',
    help: 'Latency of model provider calls, by provider, model and kind',
    labelNames: ['provider', 'model', 'kind'] as const,
    buckets: CALL_BUCKETS,
    registers: [this.registry],
  });

  readonly modelTokens = new Counter({
    name: 'synthorg_model_tokens_total',
    help: 'Tokens of model provider calls, by provider, model and direction (input, output)',
    labelNames: ['provider', 'model', 'direction'] as const,
    registers: [this.registry],
  });

  readonly modelCost = new Counter({
    name: 'synthorg_model_cost_total',
    help: 'Cost of model provider calls in the budget currency, by provider and model',
    labelNames: ['provider', 'model'] as const,
    registers: [this.registry],
  });

  readonly toolCalls = new Counter({
    name: 'synthorg_tool_calls_total',
    help: 'Tool calls of agent runs, by tool and verdict',
    labelNames: ['tool', 'verdict'] as const,
    registers: [this.registry],
  });

  readonly toolDuration = new Histogram({
    name: 'synthorg_tool_call_duration_seconds',
    help: 'Duration of executed tool calls, by tool',
    labelNames: ['tool'] as const,
    buckets: TOOL_BUCKETS,
    registers: [this.registry],
  });

  readonly queueDepth = new Gauge({
    name: 'synthorg_task_queue_jobs',
    help: 'Task run jobs of the queue: queued (whole queue on Postgres) and running (this replica)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  readonly queueOldestAge = new Gauge({
    name: 'synthorg_task_queue_oldest_job_age_seconds',
    help: 'Age of the oldest task run job still waiting to start (0: none waits)',
    registers: [this.registry],
  });

  readonly approvalsPending = new Gauge({
    name: 'synthorg_approvals_pending',
    help: 'Approval items waiting for a decision',
    registers: [this.registry],
  });

  readonly approvalDecision = new Histogram({
    name: 'synthorg_approval_decision_seconds',
    help: 'Time from an approval item being filed to its decision, by decision',
    labelNames: ['decision'] as const,
    buckets: DECISION_BUCKETS,
    registers: [this.registry],
  });

  readonly budgetUtilisation = new Gauge({
    name: 'synthorg_budget_utilisation_ratio',
    help: 'Share of a budget limit used in its period (1 = the limit), by limit',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly dbPool = new Gauge({
    name: 'synthorg_db_pool_connections',
    help: 'Postgres connections of a pool of this replica, by state (in_use, idle, waiting: clients queued for one)',
    labelNames: ['pool', 'state'] as const,
    registers: [this.registry],
  });

  readonly eventBusLag = new Histogram({
    name: 'synthorg_event_bus_lag_seconds',
    help: 'Time from an event being published on another replica to its delivery here',
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });

  readonly websocketConnections = new Gauge({
    name: 'synthorg_websocket_connections',
    help: 'Open WebSocket connections on this replica',
    registers: [this.registry],
  });

  /** `processMetrics`: the default process and runtime metrics (off while nothing scrapes them). */
  constructor(processMetrics: boolean) {
    if (processMetrics) {
      collectDefaultMetrics({ register: this.registry });
    }
  }

  /** Registers (or, under the same name, replaces) a figure read at scrape time; returns its removal. */
  onScrape(name: string, hook: ScrapeHook): () => void {
    this.hooks.set(name, hook);
    return () => {
      if (this.hooks.get(name) === hook) {
        this.hooks.delete(name);
      }
    };
  }

  /** The exposition text: scrape hooks first (bounded), then every metric. */
  async render(): Promise<string> {
    await Promise.allSettled([...this.hooks.values()].map((hook) => withinTimeout(hook)));
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

async function withinTimeout(hook: ScrapeHook): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, HOOK_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([Promise.resolve().then(hook), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
