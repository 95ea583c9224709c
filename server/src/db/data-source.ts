import { DataSource } from 'typeorm';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

/** Schema changes only through migrations; `synchronize` stays off. */
export function createDataSource(url: string, poolSize = 20): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: entities(),
    migrations,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: poolSize },
  });
}

export async function migrate(ds: DataSource): Promise<void> {
  await ds.runMigrations({ transaction: 'each' });
}
