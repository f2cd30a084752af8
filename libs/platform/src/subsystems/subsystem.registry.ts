import { Injectable } from '@nestjs/common';

import type { SubsystemName } from '@app/domain';

export interface SubsystemState {
  name: SubsystemName;
  wired: boolean;
  /** Why it is not wired (or a short description when it is). */
  detail: string | null;
  since: Date;
}

/**
 * Which failure-tolerant subsystems are wired right now. Startup registers each one; controllers that
 * depend on one declare it with @RequiresSubsystems and answer 503 (8001) while it is unwired.
 */
@Injectable()
export class SubsystemRegistry {
  private readonly states = new Map<SubsystemName, SubsystemState>();
  /** The states sorted by name, kept until the next change: /health reads them on every request. */
  private sorted: readonly SubsystemState[] | null = null;

  markWired(name: SubsystemName, detail: string | null = null): void {
    this.states.set(name, { name, wired: true, detail, since: new Date() });
    this.sorted = null;
  }

  markUnwired(name: SubsystemName, reason: string): void {
    this.states.set(name, { name, wired: false, detail: reason, since: new Date() });
    this.sorted = null;
  }

  isWired(name: SubsystemName): boolean {
    return this.states.get(name)?.wired === true;
  }

  get(name: SubsystemName): SubsystemState | undefined {
    return this.states.get(name);
  }

  /** Every subsystem's state, by name; the same array until a state changes. */
  snapshot(): readonly SubsystemState[] {
    this.sorted ??= Object.freeze([...this.states.values()].sort((a, b) => (a.name < b.name ? -1 : 1)));
    return this.sorted;
  }
}
