/**
 * Entries that feature modules register by name at init (hooks, buffers); each registration
 * answers the function that removes it again.
 */
export abstract class NamedRegistry<T extends { name: string }> {
  protected readonly entries: T[] = [];

  /** @param kind names the entries in the error a second entry of one name gets (when names are unique). */
  protected constructor(
    private readonly kind: string,
    private readonly uniqueNames: boolean,
  ) {}

  register(entry: T): () => void {
    if (this.uniqueNames && this.entries.some((e) => e.name === entry.name)) {
      throw new Error(`${this.kind} "${entry.name}" is already registered`);
    }
    this.entries.push(entry);
    return () => {
      const index = this.entries.indexOf(entry);
      if (index >= 0) {
        this.entries.splice(index, 1);
      }
    };
  }

  /** The registered names, in the order the entries are kept (registration order unless a registry sorts them). */
  names(): string[] {
    return this.entries.map((e) => e.name);
  }
}
