import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ephemeralKeys } from '../../auth/keys.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { buildTestApp } from '../../test/app.ts';
import { createTestDatabase, testDrivers } from '../../test/database.ts';
import { createLiveSession } from '../../test/live-session.ts';
import { createTestUser } from '../../test/users.ts';

/**
 * What the API acknowledged survives a restart: the app and its database connection are
 * closed after a token is issued, then a new app over the same data calls it.
 */
describe.each(testDrivers)('tokens across a restart (%s)', (driver) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function openTwice(): Promise<[Database, () => Promise<Database>]> {
    if (driver === 'pglite') {
      const dir = await mkdtemp(join(tmpdir(), 'upnext-restart-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const open = async () => {
        const database = await openDatabase({ driver: 'pglite', dataDir: dir });
        await database.migrate();
        return database;
      };
      return [await open(), open];
    }
    const first = await createTestDatabase('postgres');
    const url = first.url as string;
    cleanups.push(() => first.close());
    const reopen = async () => openDatabase({ driver: 'postgres', url });
    // The first handle's own close would drop the database: close only its pool.
    return [{ ...first, close: async () => undefined }, reopen];
  }

  it('calls a token issued before the restart', async () => {
    const keys = ephemeralKeys();
    const [database, reopen] = await openTwice();
    const before = await buildTestApp(database, {}, { keys });
    const live = await createLiveSession(before);
    const visitor = await createTestUser(before);
    const issued = await before.app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      headers: visitor.headers,
      payload: { sessionId: live.session.id },
    });
    expect(issued.statusCode).toBe(201);
    await before.app.close();
    await database.close();

    const database2 = await reopen();
    const after = await buildTestApp(database2, {}, { keys });
    try {
      const called = await after.app.inject({
        method: 'POST',
        url: '/api/queues/sessions/next-token',
        headers: live.owner.headers,
        payload: { sessionId: live.session.id },
      });
      expect(called.json().data.called).toMatchObject({ id: issued.json().data.id, number: 1 });
    } finally {
      await after.app.close();
      await database2.close();
    }
  }, 120_000);
});
