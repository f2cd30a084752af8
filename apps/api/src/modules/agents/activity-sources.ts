import { Injectable } from '@nestjs/common';

import type { ActivitySource } from '@app/domain';

/**
 * The activity feed's extension point: modules built on the roster (delegation) register the events
 * they record here, so the feed shows them without the roster depending on those modules.
 */
@Injectable()
export class ActivitySources {
  private readonly sources: ActivitySource[] = [];

  register(source: ActivitySource): void {
    if (this.sources.some((s) => s.name === source.name)) {
      throw new Error(`duplicate activity source: ${source.name}`);
    }
    this.sources.push(source);
  }

  all(): readonly ActivitySource[] {
    return this.sources;
  }
}
