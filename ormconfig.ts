// DataSource for the TypeORM CLI (`typeorm -d dist/ormconfig.js migration:show`), built by the same
// factory the service uses, from the same environment variables and YAML file.
import 'reflect-metadata';

import { createDataSource } from '@app/persistence';
import { looksLikePostgresUrl, readConfigSources } from '@app/platform';

const sources = readConfigSources(process.env);
const url = process.env.SYNTHORG_DATABASE_URL;
const isPostgres = url !== undefined && looksLikePostgresUrl(url);

export default createDataSource({
  backend: isPostgres ? 'postgres' : 'sqlite',
  databaseUrl: isPostgres ? url : null,
  sqlitePath: sources.env.SYNTHORG_DB_PATH ?? 'data/synthorg.db',
});
