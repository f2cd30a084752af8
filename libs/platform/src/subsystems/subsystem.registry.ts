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

  markWired(name: SubsystemName, detail: string | null = null): void {
    this.states.set(name, { name, wired: true, detail, since: new Date() });
  }

  markUnwired(name: SubsystemName, reason: string): void {
    this.states.set(name, { name, wired: false, detail: reason, since: new Date() });
  }

  isWired(name: SubsystemName): boolean {
    return this.states.get(name)?.wired === true;
  }

  get(name: SubsystemName): SubsystemState | undefined {
    return this.states.get(name);
  }

  snapshot(): SubsystemState[] {
    return [...this.states.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
