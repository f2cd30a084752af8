export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;
/** Largest offset: beyond a safe integer the number is no longer exact and databases refuse it. */
export const PAGE_OFFSET_MAX = Number.MAX_SAFE_INTEGER;
export const PATH_ID_MIN = 1;
export const PATH_ID_MAX = 128;

export interface PageRequest {
  offset: number;
  limit: number;
}

/** One page of a list plus the total across all pages; rendered as PaginatedResponse by the HTTP layer. */
export class Page<T> {
  constructor(
    readonly items: readonly T[],
    readonly total: number,
    readonly offset: number,
    readonly limit: number,
    /** Data sources that failed during the read while the others still answered. */
    readonly degradedSources: readonly string[] = [],
    /** Fields a list adds beside the page at the top level (the budget records' summaries). */
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {}

  map<U>(fn: (item: T) => U): Page<U> {
    return new Page(this.items.map(fn), this.total, this.offset, this.limit, this.degradedSources, this.extra);
  }

  /** Pages an in-memory list. */
  static of<T>(all: readonly T[], request: PageRequest, degradedSources: readonly string[] = []): Page<T> {
    return new Page(
      all.slice(request.offset, request.offset + request.limit),
      all.length,
      request.offset,
      request.limit,
      degradedSources,
    );
  }
}

/**
 * A page whose items are already JSON, as UTF-8 bytes: the HTTP layer splices them into the
 * PaginatedResponse envelope without parsing or encoding them again. {@link RenderedPage.of}
 * renders the rows of a list read once per rows array: callers that share one read (see the
 * persistence layer's `CountCache.share`) share the rendering too.
 */
export class RenderedPage {
  constructor(
    /** The items: a JSON array in the page's order, as UTF-8. */
    readonly items: Buffer,
    readonly total: number,
    readonly offset: number,
    readonly limit: number,
  ) {}

  /**
   * The page of `rows` mapped by `map` and rendered as JSON. The rendering is kept on the rows array
   * for the mapping that made it: the same array mapped by the same function again reuses it (so the
   * rows must not change once rendered).
   */
  static of<R extends object, T>(
    rows: readonly R[],
    map: (row: R) => T,
    total: number,
    request: PageRequest,
  ): RenderedPage {
    const holder = rows as RenderedRows;
    let rendered = holder[RENDERED];
    if (rendered?.map !== map) {
      rendered = { map, items: Buffer.from(JSON.stringify(rows.map(map))) };
      // A symbol-keyed property rather than a WeakMap: the rendering lives and dies with its rows,
      // and costs the collector nothing more than the rows do.
      Object.defineProperty(holder, RENDERED, { value: rendered, configurable: true });
    }
    return new RenderedPage(rendered.items, total, request.offset, request.limit);
  }
}

const RENDERED = Symbol('rendered');

interface RenderedRows {
  [RENDERED]?: { map: unknown; items: Buffer };
}
