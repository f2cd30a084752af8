import type { DataSource, EntityManager } from 'typeorm';

/**
 * Multi-row INSERTs of `rows` into `entity`'s table, `batch` rows a statement, the values converted
 * as TypeORM stores them (its own column conversion), so a bench seeds millions of rows in seconds.
 */
export async function insertRows(
  manager: EntityManager,
  source: DataSource,
  entity: new () => object,
  rows: readonly object[],
  batch: number,
): Promise<void> {
  const { driver } = source;
  const metadata = source.getMetadata(entity);
  const columns = metadata.columns;
  const names = columns.map((c) => driver.escape(c.databaseName)).join(', ');
  for (let from = 0; from < rows.length; from += batch) {
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const row of rows.slice(from, from + batch)) {
      const marks = columns.map((column) => {
        values.push(driver.preparePersistentValue(column.getEntityValue(row), column));
        return driver.createParameter(column.propertyName, values.length - 1);
      });
      tuples.push(`(${marks.join(', ')})`);
    }
    await manager.query(
      `INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES ${tuples.join(', ')}`,
      values,
    );
  }
}

/** Creates the first CEO on a fresh service (`/auth/setup`) and answers its token. */
export async function firstRunToken(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-password-0123' }),
  });
  const body = (await res.json()) as { data?: { token?: string } };
  if (!body.data?.token) {
    throw new Error(`setup failed: ${res.status}`);
  }
  return body.data.token;
}

/**
 * On a fresh service: the first CEO ({@link firstRunToken}), a provider of one cheap model at
 * `providerUrl` (a fake: costs are recorded, budgets never bind) and a company of the startup
 * template. Answers the CEO's token and the agents' names.
 */
export async function setUpCompany(port: number, providerUrl: string): Promise<{ token: string; agents: string[] }> {
  const token = await firstRunToken(port);
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) {
      throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    return (JSON.parse(text) as { data: T }).data;
  };
  await post('/providers', {
    name: 'mock',
    gateway_provider: 'openai',
    auth_type: 'none',
    base_url: providerUrl,
    models: [{ id: 'mock-small', cost_per_1k_input: 0.001, cost_per_1k_output: 0.002, max_context: 8000 }],
  });
  const company = await post<{ agents: Array<{ name: string }> }>('/setup/company', {
    company_name: 'Bench',
    template_name: 'startup',
  });
  return { token, agents: company.agents.map((a) => a.name) };
}
