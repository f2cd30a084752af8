import { Equal, type FindOptionsOrder, type FindOptionsWhere, type ObjectLiteral, type Repository } from 'typeorm';

/**
 * One source of a merged, newest-first feed (an activity timeline): a table's rows matching a
 * filter, ordered by one timestamp property. A page of the merged feed needs at most `offset +
 * limit` rows of each source, whatever the sources hold: the rows past those are older than every
 * one the page could show.
 */
export interface FeedSource<E extends ObjectLiteral> {
  repository: Repository<E>;
  /** The timestamp property the source is ordered by, newest first. */
  newestBy: keyof E & string;
  /** The source's filter (no condition of its own on `newestBy` beyond a lower bound). */
  where: FindOptionsWhere<E>;
}

const timeOf = (value: unknown): number => (value instanceof Date ? value.getTime() : Number.NaN);

/**
 * The source's newest `need` rows, and every further row stamped at the same moment as the last of
 * them: a merged page then cuts between distinct moments, so rows tied at the cut are never split
 * between two pages in an order the merge would not give them. Newest first. One row more than
 * needed is read to see whether the cut falls inside a moment; only then is that moment read whole.
 */
export async function newestRows<E extends ObjectLiteral>(source: FeedSource<E>, need: number): Promise<E[]> {
  if (need <= 0) {
    return [];
  }
  const { repository, newestBy, where } = source;
  const order = { [newestBy]: 'DESC' } as FindOptionsOrder<E>;
  const rows = await repository.find({ where, order, take: need + 1 });
  if (rows.length <= need) {
    return rows;
  }
  const last: unknown = rows[need - 1]?.[newestBy];
  const cutInside = last instanceof Date && timeOf(rows[need]?.[newestBy]) === last.getTime();
  if (!cutInside) {
    return rows.slice(0, need);
  }
  const tied = await repository.find({ where: { ...where, [newestBy]: Equal(last) } as FindOptionsWhere<E> });
  return [...rows.filter((row) => timeOf(row[newestBy]) !== last.getTime()), ...tied];
}

/**
 * How many rows the source holds, counting at most `cap` of them (its newest): one statement whose
 * work is bounded by the cap, read from an index on the filter and `newestBy` when there is one.
 */
export async function countNewest<E extends ObjectLiteral>(source: FeedSource<E>, cap: number): Promise<number> {
  const { repository, newestBy, where } = source;
  const inner = repository
    .createQueryBuilder('row')
    .select('1', 'one')
    .where(where)
    .orderBy(`row.${newestBy}`, 'DESC')
    .limit(cap);
  const counted = await repository.manager
    .createQueryBuilder()
    .select('COUNT(*)', 'n')
    .from(`(${inner.getQuery()})`, 'newest')
    .setParameters(inner.getParameters())
    .getRawOne<{ n: unknown }>();
  return Number(counted?.n ?? 0);
}
