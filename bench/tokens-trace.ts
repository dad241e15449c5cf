/**
 * Where one token issue goes (issue 15): the statements the real app sends to PostgreSQL for
 * one walk-in issued at the desk (the request bench/tokens.ts repeats), in order, with the
 * ones run while the session row is locked marked. A diagnostic, not a benchmark: it counts
 * round trips, it does not time them.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/tokens-trace.ts
 */
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { adminStatement } from './pg-admin.ts';
import { appWithLiveSession } from './tokens-app.ts';

const serverUrl = process.env.BENCH_DATABASE_URL;
if (!serverUrl) throw new Error('BENCH_DATABASE_URL is not set');
const name = `upnext_bench_trace_${process.pid}`;
const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
await adminStatement(serverUrl, `create database ${name}`);
try {
  const database = await openDatabase({ driver: 'postgres', url });
  const { app, live } = await appWithLiveSession(database);

  // Every statement any pool connection sends, while `statements` is set.
  let statements: string[] | undefined;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    statements?.push(text.replace(/\s+/g, ' '));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;

  const issue = () =>
    app.inject({
      method: 'POST',
      url: '/api/queues/sessions/tokens',
      headers: { authorization: `Bearer ${live.owner.accessToken}` },
      payload: { sessionId: live.session.id, visitorName: 'Walk-in visitor' },
    });
  await issue(); // the first one warms caches (the queue's statistics, the key set)
  statements = [];
  const answer = await issue();
  const traced = statements;
  statements = undefined;

  console.log(`One issue: HTTP ${answer.statusCode}, ${traced.length} statements`);
  let locked = false;
  for (const text of traced) {
    if (/ for (no key )?update/i.test(text) && /from "sessions"/.test(text)) locked = true;
    console.log(`${locked ? 'L' : ' '} ${text.slice(0, 150)}`);
    if (/^commit|^rollback/i.test(text)) locked = false;
  }
  console.log('L: while the session row is locked');
  await app.close();
  await database.close();
} finally {
  await adminStatement(serverUrl, `drop database if exists ${name}`);
}
