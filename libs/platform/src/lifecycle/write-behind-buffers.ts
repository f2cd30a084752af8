import { Injectable } from '@nestjs/common';

import { NamedRegistry } from './named-registry';

/** Rows a feature writes behind the work that made them, in batches (provider call rows, say). */
export interface WriteBehindBuffer {
  /** Shown in logs, e.g. `providers.calls`. */
  name: string;
  /** Resolves once every row buffered before the call is stored, or its failure handled. */
  flush(): Promise<void>;
}

/**
 * The registry of this process's write-behind buffers. Whoever must see the database as of now
 * (a backup's copy) flushes them first, so no row of work already done is missing from it. Other
 * replicas' buffers are theirs: each holds at most its own batch window of rows.
 */
@Injectable()
export class WriteBehindBuffers extends NamedRegistry<WriteBehindBuffer> {
  constructor() {
    super('write-behind buffer', true);
  }

  /** Flushes every buffer side by side; answers the names of those whose flush threw. */
  async flushAll(): Promise<string[]> {
    const buffers = [...this.entries];
    const outcomes = await Promise.allSettled(buffers.map((b) => b.flush()));
    return buffers.filter((_, i) => outcomes[i].status === 'rejected').map((b) => b.name);
  }
}
