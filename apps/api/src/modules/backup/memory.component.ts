import { Injectable } from '@nestjs/common';

import { MemoryBackup } from '../memory';
import type { ComponentHandler } from './component-handler';

/**
 * The `memory` component (agent memory): the memory entries and organisation facts with their
 * vectors, written by the memory module as JSON lines and restorable on its own. The `persistence`
 * component's whole-database copy holds the same tables; restoring `memory` alone replaces just
 * them, and every replica rebuilds its memory index when it hears of the restore.
 */
@Injectable()
export class MemoryComponent implements ComponentHandler {
  readonly component = 'memory' as const;

  constructor(private readonly memory: MemoryBackup) {}

  backup(dir: string): Promise<void> {
    return this.memory.write(dir);
  }

  async validateSource(dir: string): Promise<void> {
    await this.memory.check(dir);
  }

  async restore(dir: string): Promise<void> {
    await this.memory.restore(dir);
  }
}
