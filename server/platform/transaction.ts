/** One transaction on a connection of its own, the way every multi-statement write takes it. */
import type pg from 'pg';

/**
 * Runs `work` inside BEGIN … COMMIT on a connection of the pool: committed when it returns,
 * rolled back when it throws (the error goes on to the caller), the connection released
 * either way.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
