import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/** Statement texts kept per entity. */
const MAX_SHAPES = 256;

/** Where a statement runs: the data source, or the manager of a unit of work (its connection). */
export type StatementSource = DataSource | EntityManager;

/** Column values to match, by property name; every value must be given (neither undefined nor null). */
export type Match<E> = { [K in keyof E]?: E[K] };

export interface FindOptions<E> {
  /** Properties to read (default: every column); the others stay unset on the answer. */
  select?: readonly (keyof E & string)[];
  /** ORDER BY terms by property name. */
  orderBy?: readonly [keyof E & string, 'ASC' | 'DESC'][];
  /** At most this many rows (default: no limit). */
  limit?: number;
}

export interface UpdateOptions<E> {
  /** Numeric columns raised by the given amount in the same statement (`version = version + 1`). */
  increment?: { [K in keyof E]?: number };
}

/**
 * The single-row statements of a hot path, without TypeORM's query builder: a find by key, an
 * insert, an update by key. Each statement's text is built once per shape from the entity's
 * metadata, and values go through the driver's own conversions both ways (`preparePersistentValue`
 * on the way in, `prepareHydratedValue` on the way out), so the rows and entities are the ones the
 * repositories' TypeORM calls read and write, on SQLite and Postgres alike. On a task row, a find by
 * id, a compare-and-set and an insert take a quarter to a half of the CPU time of the same statement
 * through TypeORM's repository and query builder (`BENCH_ONLY=statements npm run bench`).
 *
 * For entities whose rows are complete in memory: no relations, embedded columns or values the
 * database generates on insert. {@link EntityStatements.for} refuses any other.
 */
export class EntityStatements<E extends ObjectLiteral> {
  private static readonly cache = new WeakMap<DataSource, Map<EntityTarget<ObjectLiteral>, unknown>>();
  /** Statement texts by shape; shapes come from the callers' code, and past the bound texts are not kept. */
  private readonly texts = new Map<string, string>();
  private readonly columns: readonly ColumnMetadata[];
  private readonly byProperty: ReadonlyMap<string, ColumnMetadata>;

  private constructor(
    private readonly source: DataSource,
    private readonly metadata: EntityMetadata,
  ) {
    this.columns = metadata.columns;
    this.byProperty = new Map(metadata.columns.map((c) => [c.propertyName, c]));
  }

  /** The statements of one entity on one data source (made once, then shared). */
  static for<E extends ObjectLiteral>(source: DataSource, target: EntityTarget<E>): EntityStatements<E> {
    let perSource = EntityStatements.cache.get(source);
    if (!perSource) {
      perSource = new Map();
      EntityStatements.cache.set(source, perSource);
    }
    let statements = perSource.get(target) as EntityStatements<E> | undefined;
    if (!statements) {
      const metadata = source.getMetadata(target);
      const unsupported =
        metadata.relations.length > 0 ||
        metadata.embeddeds.length > 0 ||
        metadata.columns.some((c) => c.isGenerated || c.isCreateDate || c.isUpdateDate || c.isVersion);
      if (unsupported) {
        throw new Error(`${metadata.name}: relations, embedded and generated columns need TypeORM's own statements`);
      }
      statements = new EntityStatements<E>(source, metadata);
      perSource.set(target, statements);
    }
    return statements;
  }

  /** The first row matching every value of one of `where` (an OR of ANDs), or null. */
  async findOne(where: Match<E> | readonly Match<E>[], options: FindOptions<E> = {}, source?: StatementSource) {
    const rows = await this.find(where, { ...options, limit: 1 }, source);
    return rows[0] ?? null;
  }

  /** The rows matching every value of one of `where` (an OR of ANDs), in `orderBy` order. */
  async find(
    where: Match<E> | readonly Match<E>[],
    options: FindOptions<E> = {},
    source?: StatementSource,
  ): Promise<E[]> {
    const alternatives = (Array.isArray(where) ? where : [where]) as readonly Match<E>[];
    const selected = options.select ? options.select.map((p) => this.column(p)) : this.columns;
    const params: unknown[] = [];
    const matched = alternatives.map((match) => this.matchValues(match, params));
    const shape = [
      'select',
      options.select ? options.select.join() : '*',
      matched.map((keys) => keys.join()).join('|'),
      (options.orderBy ?? []).join(),
      options.limit ?? '',
    ];
    const text = this.text(shape.join('\u0000'), () => {
      let index = 0;
      const conditions = matched.map((keys) => {
        const condition = keys.map((p) => this.assignment(p, index++)).join(' AND ');
        return matched.length > 1 ? `(${condition})` : condition;
      });
      const order = (options.orderBy ?? []).map(([p, dir]) => `${this.name(p)} ${dir}`);
      return [
        `SELECT ${selected.map((c) => this.driver.escape(c.databaseName)).join(', ')}`,
        `FROM ${this.driver.escape(this.metadata.tableName)} WHERE ${conditions.join(' OR ')}`,
        order.length > 0 ? `ORDER BY ${order.join(', ')}` : '',
        options.limit !== undefined ? `LIMIT ${Math.max(0, Math.trunc(options.limit))}` : '',
      ]
        .filter((part) => part !== '')
        .join(' ');
    });
    const result = await this.run(text, params, source);
    return (result.records ?? []).map((row) => this.hydrate(row as Record<string, unknown>, selected));
  }

  /** Inserts the row; its undefined properties take the column defaults. */
  async insert(row: E, source?: StatementSource): Promise<void> {
    const present = this.columns.filter((c) => c.getEntityValue(row) !== undefined);
    const params = present.map((c): unknown => this.driver.preparePersistentValue(c.getEntityValue(row), c));
    const text = this.text(`insert\u0000${present.map((c) => c.propertyName).join()}`, () => {
      const names = present.map((c) => this.driver.escape(c.databaseName)).join(', ');
      const values = present.map((c, i) => this.driver.createParameter(c.propertyName, i)).join(', ');
      return `INSERT INTO ${this.driver.escape(this.metadata.tableName)} (${names}) VALUES (${values})`;
    });
    await this.run(text, params, source);
  }

  /**
   * Sets `changes` (undefined properties are left alone) and raises the `increment` columns on the
   * rows matching every value of `where`; answers how many rows changed.
   */
  async update(
    where: Match<E>,
    changes: Partial<E>,
    options: UpdateOptions<E> = {},
    source?: StatementSource,
  ): Promise<number> {
    const params: unknown[] = [];
    const set = Object.keys(changes).filter((p) => changes[p as keyof E] !== undefined);
    for (const p of set) {
      params.push(this.driver.preparePersistentValue(changes[p as keyof E], this.column(p)));
    }
    const increments = Object.keys(options.increment ?? {}).filter((p) => options.increment?.[p] !== undefined);
    for (const p of increments) {
      this.column(p);
      params.push(Number(options.increment?.[p]));
    }
    if (params.length === 0) {
      throw new Error(`${this.metadata.name}: an update needs at least one change`);
    }
    const matched = this.matchValues(where, params);
    const text = this.text(['update', set.join(), increments.join(), matched.join()].join('\u0000'), () => {
      let index = 0;
      const assignments = [
        ...set.map((p) => this.assignment(p, index++)),
        ...increments.map((p) => `${this.name(p)} = ${this.name(p)} + ${this.driver.createParameter(p, index++)}`),
      ];
      const condition = matched.map((p) => this.assignment(p, index++)).join(' AND ');
      return `UPDATE ${this.driver.escape(this.metadata.tableName)} SET ${assignments.join(', ')} WHERE ${condition}`;
    });
    return (await this.run(text, params, source)).affected ?? 0;
  }

  private get driver() {
    return this.source.driver;
  }

  private column(property: string): ColumnMetadata {
    const column = this.byProperty.get(property);
    if (!column) {
      throw new Error(`${this.metadata.name} has no column for property "${property}"`);
    }
    return column;
  }

  private name(property: string): string {
    return this.driver.escape(this.column(property).databaseName);
  }

  /** `name = <parameter index>`, as the dialect writes parameters. */
  private assignment(property: string, index: number): string {
    return `${this.name(property)} = ${this.driver.createParameter(property, index)}`;
  }

  /** The match's properties, in order, with their values appended to `params` as the driver stores them. */
  private matchValues(match: Match<E>, params: unknown[]): string[] {
    const keys = Object.keys(match);
    if (keys.length === 0) {
      throw new Error(`${this.metadata.name}: a statement needs a condition`);
    }
    for (const p of keys) {
      const value = match[p as keyof E];
      if (value === undefined || value === null) {
        throw new Error(`${this.metadata.name}: no value to match for "${p}"`);
      }
      params.push(this.driver.preparePersistentValue(value, this.column(p)));
    }
    return keys;
  }

  private text(shape: string, build: () => string): string {
    let text = this.texts.get(shape);
    if (text === undefined) {
      text = build();
      if (this.texts.size < MAX_SHAPES) {
        this.texts.set(shape, text);
      }
    }
    return text;
  }

  private hydrate(row: Record<string, unknown>, columns: readonly ColumnMetadata[]): E {
    const entity = this.metadata.create() as E;
    for (const column of columns) {
      column.setEntityValue(entity, this.driver.prepareHydratedValue(row[column.databaseName], column));
    }
    return entity;
  }

  private async run(text: string, params: unknown[], source: StatementSource = this.source) {
    const manager = 'manager' in source ? source.manager : source;
    const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
    try {
      return await runner.query(text, params, true);
    } finally {
      if (runner !== manager.queryRunner) {
        await runner.release();
      }
    }
  }
}
