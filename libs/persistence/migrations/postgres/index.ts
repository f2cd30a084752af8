import { InitialSchema1763700000000 } from './1763700000000-initial-schema';

/** Postgres migrations in order. Immutable once merged; add new files at the end. */
export const POSTGRES_MIGRATIONS = [InitialSchema1763700000000];
