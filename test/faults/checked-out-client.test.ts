/**
 * A pool client checked out when its connection is cut (a failover, a network fault) must
 * not end the process: its query is rejected, the error reaches the caller, and the pool
 * serves again once the database is back.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPool } from '../../server/platform/db.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

let proxy: TcpProxy;
const uncaught: Error[] = [];
const record = (err: Error) => uncaught.push(err);

beforeAll(async () => {
  proxy = await startTcpProxy(process.env.DATABASE_URL!);
  process.on('uncaughtException', record);
});
afterAll(async () => {
  process.off('uncaughtException', record);
  await proxy?.close();
});

it('rejects the query of a client checked out when the connection is cut, and nothing is thrown past it', async () => {
  const pool = openPool(proxy.url, { max: 2, connectionTimeoutMs: 2_000 });
  try {
    const client = await pool.connect();
    expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
    const slow = client.query('SELECT pg_sleep(5)');
    await proxy.cut();
    await expect(slow).rejects.toThrow(/terminated|ECONNRESET|Connection/i);
    // The end of the connection is reported after the query's rejection: give it the time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.release(true);
    expect(uncaught).toEqual([]);

    await proxy.restore();
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
  } finally {
    await pool.end();
  }
});
