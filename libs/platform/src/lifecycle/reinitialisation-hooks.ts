import { Injectable } from '@nestjs/common';

import { NamedRegistry } from './named-registry';

/**
 * One step of the runtime rebuild that setup completion (and later, configuration changes) run:
 * provider reload, agent bootstrap, runtime rebuild. Feature modules register theirs at init.
 */
export interface ReinitialisationHook {
  /** Shown in logs and errors, e.g. `providers.reload`. */
  name: string;
  /** Lower runs first: providers (100) before agents (200) before the runtime (300). */
  order: number;
  run(): Promise<void>;
}

export const ReinitialisationOrder = { Providers: 100, Agents: 200, Runtime: 300 } as const;

/** The registry of reinitialisation steps. Errors propagate unchanged so callers can retry. */
@Injectable()
export class ReinitialisationHooks extends NamedRegistry<ReinitialisationHook> {
  constructor() {
    super('reinitialisation hook', true);
  }

  /** The registered names, in run order. */
  override names(): string[] {
    return this.ordered().map((h) => h.name);
  }

  /** Runs every hook in order; the first failure stops the run and is rethrown. */
  async runAll(onStep?: (name: string) => void): Promise<string[]> {
    const ran: string[] = [];
    for (const hook of this.ordered()) {
      onStep?.(hook.name);
      await hook.run();
      ran.push(hook.name);
    }
    return ran;
  }

  /**
   * Runs the named hooks that are registered, in order (a restore reloads providers and rebuilds the
   * runtime, but must not let the agent bootstrap rewrite the data it just restored).
   */
  async runOnly(names: readonly string[]): Promise<string[]> {
    const ran: string[] = [];
    for (const hook of this.ordered().filter((h) => names.includes(h.name))) {
      await hook.run();
      ran.push(hook.name);
    }
    return ran;
  }

  private ordered(): ReinitialisationHook[] {
    return [...this.entries].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  }
}
