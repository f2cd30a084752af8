import type { TerminationReason } from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';

/** A run that ended with an outcome (not parked): what the memory keeps of it. */
export interface FinishedRun {
  readonly agent: AgentEntity;
  readonly task: TaskEntity;
  readonly reason: TerminationReason;
  /** The final answer as the output scan left it. */
  readonly finalContent: string;
  readonly detail: string | null;
}

/** What the memory module plugs into the engine: context at a run's start, a record at its end. */
export interface RunMemoryPort {
  /** The memory message injected between the system prompt and the task instruction, or null. */
  recall(agent: AgentEntity, task: TaskEntity, signal: AbortSignal): Promise<string | null>;
  /** Called once the run's outcome is stored; never awaited by the run, never throws to it. */
  remember(run: FinishedRun): void;
}

/**
 * The engine's slot for agent memory. Empty (no memory module, or no embedder), runs start with the
 * system prompt and the instruction only, and nothing is remembered.
 */
export class RunMemory {
  private port: RunMemoryPort | null = null;

  /** Plugs in the memory; answers the function that takes it out again. */
  use(port: RunMemoryPort): () => void {
    this.port = port;
    return () => {
      if (this.port === port) {
        this.port = null;
      }
    };
  }

  /** The memory message for a run's first call; a failure costs the run its memory, not the run. */
  async recall(agent: AgentEntity, task: TaskEntity, signal: AbortSignal): Promise<string | null> {
    const port = this.port;
    if (!port) {
      return null;
    }
    try {
      return await port.recall(agent, task, signal);
    } catch {
      return null;
    }
  }

  remember(run: FinishedRun): void {
    try {
      this.port?.remember(run);
    } catch {
      // The memory logs its own failures; the run's outcome stands.
    }
  }
}
