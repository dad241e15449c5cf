import pg from 'pg';

/** Runs one statement (create or drop a bench database) on its own connection to `url`. */
export async function adminStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
