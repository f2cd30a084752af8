/**
 * Serialises async sections per key, in arrival order. `run` is exclusive; `runShared` sections run
 * together with the shared sections queued next to them and exclusively of every `run` (readers
 * and writers: a reader that arrives after a waiting writer waits for it, so writers never starve).
 * In process only. A caller that holds one key while taking another must always take them in the same
 * order, or two callers can wait on each other for ever.
 */
export class KeyedMutex {
  /** Per key: settles once everything queued so far has finished. */
  private readonly tails = new Map<string, Promise<void>>();
  /** Per key: the group of shared sections at the end of the queue, which newcomers may join. */
  private readonly groups = new Map<string, SharedGroup>();

  async run<T>(key: string, section: () => Promise<T>): Promise<T> {
    // Shared sections that arrive after this one queue behind it.
    this.groups.delete(key);
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release = (): void => undefined;
    const current = new Promise<void>((done) => {
      release = done;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await section();
    } finally {
      release();
      this.forget(key, tail);
    }
  }

  async runShared<T>(key: string, section: () => Promise<T>): Promise<T> {
    let group = this.groups.get(key);
    if (!group) {
      const start = this.tails.get(key) ?? Promise.resolve();
      let finish = (): void => undefined;
      const done = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const tail = start.then(() => done);
      group = { start, members: 0, finish, tail };
      this.groups.set(key, group);
      this.tails.set(key, tail);
    }
    group.members += 1;
    await group.start;
    try {
      return await section();
    } finally {
      group.members -= 1;
      if (group.members === 0) {
        // The last member out closes the group; a later reader starts a new one behind it.
        if (this.groups.get(key) === group) {
          this.groups.delete(key);
        }
        group.finish();
        this.forget(key, group.tail);
      }
    }
  }

  private forget(key: string, tail: Promise<void>): void {
    if (this.tails.get(key) === tail) {
      this.tails.delete(key);
    }
  }
}

interface SharedGroup {
  start: Promise<void>;
  members: number;
  finish: () => void;
  tail: Promise<void>;
}
