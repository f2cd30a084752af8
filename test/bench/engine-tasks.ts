// The service's task API as the engine benchmark uses it: creating tasks and waiting for them.
import { CREATE_IN_FLIGHT, DEADLINE_MS, POLL_MS, STALL_MS } from './engine-config';

interface Envelope<T> {
  data: T;
  pagination?: { total: number } | null;
}

export interface TaskView {
  id: string;
  status: string;
  status_reason: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** The service's REST API as the bench's one user. */
export class Api {
  token: string | null = null;

  constructor(public base: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (res.status >= 300) {
      throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    return JSON.parse(text) as Envelope<T>;
  }

  async count(project: string, status: string): Promise<number> {
    const page = await this.call<TaskView[]>('GET', `/tasks?project=${project}&status=${status}&limit=1`);
    return page.pagination?.total ?? 0;
  }

  /** Every task of a project in one status (pages of 200; bounded by the first page's total). */
  async tasks(project: string, status: string, limit = Number.MAX_SAFE_INTEGER): Promise<TaskView[]> {
    const out: TaskView[] = [];
    for (let offset = 0, total = 1; offset < total && out.length < limit; offset += 200) {
      const page = await this.call<TaskView[]>(
        'GET',
        `/tasks?project=${project}&status=${status}&limit=${Math.min(200, limit)}&offset=${offset}`,
      );
      total = page.pagination?.total ?? 0;
      out.push(...page.data);
      if (page.data.length === 0) {
        break;
      }
    }
    return out.slice(0, limit);
  }

  async project(name: string): Promise<string> {
    return (await this.call<{ id: string }>('POST', '/projects', { name })).data.id;
  }
}

export interface Created {
  ids: string[];
  errors: number;
  firstError: string | null;
  /** Wall clock (ms) when the first create was sent and when the last one answered. */
  startedAt: number;
  endedAt: number;
}

export interface Waited {
  completed: number;
  waitedMs: number;
  outcome: 'all completed' | 'deadline passed' | 'stalled' | 'service died';
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
/** A task timestamp in epoch milliseconds (NaN when unset). */
export const ms = (iso: string | null): number => (iso ? Date.parse(iso) : Number.NaN);

/** `width` workers take indices 0..count-1 in order; `job` must not throw. */
async function pool(count: number, width: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      await job(next++);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}

export async function createTasks(api: Api, count: number, project: string, agents: string[]): Promise<Created> {
  const ids: string[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const startedAt = Date.now();
  await pool(count, CREATE_IN_FLIGHT, async (i) => {
    try {
      const task = await api.call<TaskView>('POST', '/tasks', {
        title: `Bench task ${i}`,
        description: 'Answer with one short sentence.',
        type: 'development',
        project,
        created_by: 'bench',
        assigned_to: agents[i % agents.length],
      });
      ids.push(task.data.id);
    } catch (error) {
      errors += 1;
      firstError ??= (error as Error).message;
    }
  });
  return { ids, errors, firstError, startedAt, endedAt: Date.now() };
}

/** Polls the completed count until all `expected` completed, the deadline passes, or nothing moves. */
export async function waitForCompletion(api: Api, project: string, expected: number): Promise<Waited> {
  const start = Date.now();
  let completed = 0;
  let lastMove = start;
  while (Date.now() - start < DEADLINE_MS) {
    const now = await api.count(project, 'completed');
    if (now !== completed) {
      completed = now;
      lastMove = Date.now();
    }
    if (completed >= expected) {
      return { completed, waitedMs: Date.now() - start, outcome: 'all completed' };
    }
    if (Date.now() - lastMove > STALL_MS) {
      return { completed, waitedMs: Date.now() - start, outcome: 'stalled' };
    }
    await sleep(POLL_MS);
  }
  return { completed, waitedMs: Date.now() - start, outcome: 'deadline passed' };
}
