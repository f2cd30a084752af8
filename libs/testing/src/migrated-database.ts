import type { DataSource } from 'typeorm';

import { createDataSource, type PersistenceBackend, runMigrations } from '@app/persistence';
import { DatabaseService } from '@app/platform';

import { createTestDatabase, type TestDatabase } from './databases';

/** A fresh database with every migration applied, opened for repository integration specs. */
export interface MigratedDatabase {
  db: TestDatabase;
  source: DataSource;
  /** What repositories are constructed with: the platform's database service, already connected to `source`. */
  database: DatabaseService;
  /** Empties the given tables (children first), for tests that count or page whole tables. */
  clear(...entities: Array<new () => object>): Promise<void>;
  close(): Promise<void>;
}

/** Creates a database on `backend`, runs the real migrations and opens a data source on it. */
export async function openMigratedDatabase(backend: PersistenceBackend): Promise<MigratedDatabase> {
  const db = await createTestDatabase(backend);
  const source = await createDataSource(db.settings).initialize();
  await runMigrations(source);
  return {
    db,
    source,
    database: connectedDatabaseService(source),
    clear: async (...entities) => {
      for (const entity of entities) {
        await source.getRepository(entity).createQueryBuilder().delete().execute();
      }
    },
    close: async () => {
      await source.destroy();
      await db.drop();
    },
  };
}

/** A DatabaseService in its ready state over `source`, without the connect loop and its dependencies. */
function connectedDatabaseService(source: DataSource): DatabaseService {
  return Object.assign(Object.create(DatabaseService.prototype) as DatabaseService, { source, stateValue: 'ready' });
}
