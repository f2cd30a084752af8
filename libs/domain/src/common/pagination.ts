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
