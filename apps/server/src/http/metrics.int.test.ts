import { topics } from '@upnext/contract/realtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../modules/notifications/notifications.repository.ts';
import { connectStomp, createSessionFixture, listen, wssUrl } from '../realtime/testing.ts';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line, e.g. `stomp_connections 1`. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe.each(testDrivers)('/metrics (%s)', (driver) => {
  let database: TestDatabase;
  let test: TestApp;
  let base: string;
  let wsBase: string;
  const scrape = async () => {
    const response = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return response.text();
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    test = await buildTestApp(database, { METRICS_TOKEN: TOKEN });
    wsBase = await listen(test.app);
    base = wsBase.replace('ws://', 'http://').replace('/wss', '');
  });
  afterAll(async () => {
    await test?.app.close();
    await database?.close();
  });

  it('answers only to the bearer token, with the error envelope otherwise', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      const response = await fetch(`${base}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { code: 'unauthorized', message: 'Send the metrics bearer token.' },
      });
    }
  });

  it('counts requests by route pattern and status, never by the URL', async () => {
    await fetch(`${base}/api/health`);
    const id = crypto.randomUUID();
    await fetch(`${base}/api/company/queues/${id}?secret=1`);
    const text = await scrape();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} [1-9]/,
    );
    expect(text).toMatch(/route="\/api\/company\/queues\/:queueId",status_code="404"/);
    expect(text).not.toContain(id);
    expect(text).not.toContain('secret');
  });

  it('reports STOMP connections and subscriptions, and the outbox depth, as they are now', async () => {
    const fixture = await createSessionFixture(database.db);
    const before = await scrape();
    const stomp = await connectStomp(wssUrl(wsBase));
    await stomp.subscribe(topics.session(fixture.sessionId));
    await enqueue(
      database.db,
      [1, 2].map((n) => ({
        channel: 'email' as const,
        recipient: `visitor${n}@example.com`,
        template: 'test',
        text: 'hello',
      })),
      new Date(Date.now() + 60_000),
    );
    const during = await scrape();
    expect(sample(during, 'stomp_connections')).toBe(
      (sample(before, 'stomp_connections') ?? 0) + 1,
    );
    expect(sample(during, 'stomp_subscriptions')).toBe(
      (sample(before, 'stomp_subscriptions') ?? 0) + 1,
    );
    expect(sample(during, 'outbox_undelivered_messages')).toBe(
      (sample(before, 'outbox_undelivered_messages') ?? 0) + 2,
    );
    await stomp.close();
    await stomp.closed;
    await expect
      .poll(async () => sample(await scrape(), 'stomp_connections'))
      .toBe(sample(before, 'stomp_connections'));
  });

  it.runIf(driver === 'postgres')('reports the database pool', async () => {
    expect(await scrape()).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const database = await createTestDatabase('pglite');
    const { app } = await buildTestApp(database);
    try {
      const response = await app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('http_request_duration_seconds');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
