/**
 * The server side of the tokens benchmark (bench/tokens.ts starts it): the real app over
 * PGlite (BENCH_DATA_DIR) or PostgreSQL (DATABASE_URL), with an open session of large
 * capacity and its owner signed in, listening on a free loopback port. Prints one JSON line
 * with the port, the session and the owner's access token. BENCH_WAITING (default 0) tokens
 * are put in the line first, so the rate can be compared with and without a long line.
 */

import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { queueTokens, sessions } from '../apps/server/src/db/schema/index.ts';
import { appWithLiveSession } from './tokens-app.ts';

const databaseUrl = process.env.DATABASE_URL;
const database = await openDatabase(
  databaseUrl
    ? { driver: 'postgres', url: databaseUrl, poolSize: 20 }
    : { driver: 'pglite', dataDir: process.env.BENCH_DATA_DIR as string },
);
const { app, live } = await appWithLiveSession(database);
const waiting = Number(process.env.BENCH_WAITING ?? 0);
const now = new Date();
// Straight rows in batches: issuing them through the API would take minutes.
for (let from = 1; from <= waiting; from += 1000) {
  const numbers = Array.from({ length: Math.min(1000, waiting - from + 1) }, (_, i) => from + i);
  await database.db.insert(queueTokens).values(
    numbers.map((number) => ({
      sessionId: live.session.id,
      number,
      displayNumber: String(number).padStart(3, '0'),
      kind: 'walk_in' as const,
      visitorName: 'Waiting visitor',
      status: 'waiting' as const,
      joinedAt: now,
      updatedAt: now,
    })),
  );
}
if (waiting > 0) {
  await database.db
    .update(sessions)
    .set({ lastIssuedNumber: sql`${sessions.lastIssuedNumber} + ${waiting}` })
    .where(eq(sessions.id, live.session.id));
}
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(
  JSON.stringify({ port, sessionId: live.session.id, staffToken: live.owner.accessToken }),
);

const stop = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
