import { topics } from '@upnext/contract/realtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { connectBus } from './bus.ts';
import { connectStomp, createSessionFixture, listen } from './testing.ts';

/**
 * Two app instances sharing one database and one bus: what is published on one reaches
 * subscribers on both, exactly once each. CI exports TEST_REDIS_URL and TEST_NATS_URL
 * (.ci/run starts the local servers when they do not answer).
 */
const buses = [
  ['Redis', process.env.TEST_REDIS_URL],
  ['NATS', process.env.TEST_NATS_URL],
] as const;

for (const [name, url] of buses) {
  if (!url) {
    console.warn(`realtime bus tests over ${name} skipped: set TEST_${name.toUpperCase()}_URL`);
  }
}

describe.each(buses)('realtime across two instances over %s', (name, url) => {
  let database: TestDatabase;
  let one: TestApp;
  let two: TestApp;
  let baseOne: string;
  let baseTwo: string;

  beforeAll(async () => {
    if (!url) return;
    database = await createTestDatabase('pglite');
    one = await buildTestApp(database, { REALTIME_BUS_URL: url });
    two = await buildTestApp(database, { REALTIME_BUS_URL: url });
    baseOne = await listen(one.app);
    baseTwo = await listen(two.app);
  });

  afterAll(async () => {
    await one?.app.close();
    await two?.app.close();
    await database?.close();
  });

  it.skipIf(!url)(`delivers a publish on one instance once on each (${name})`, async () => {
    const { sessionId } = await createSessionFixture(database.db);
    const destination = topics.session(sessionId);
    const onOne = await connectStomp(baseOne);
    const onTwo = await connectStomp(baseTwo);
    await onOne.subscribe(destination);
    await onTwo.subscribe(destination);

    one.app.realtime.publisher.publish(destination, { n: 1 });
    two.app.realtime.publisher.publish(destination, { n: 2 });
    one.app.realtime.publisher.publish(destination, { n: 3 });

    for (const client of [onOne, onTwo]) {
      const received: unknown[] = [];
      for (let i = 0; i < 3; i++) received.push(JSON.parse((await client.messages.next()).body));
      // Each exactly once; the local copy may overtake the bus copy, so order is not asserted.
      expect(received).toHaveLength(3);
      expect(received).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]));
    }
    // A final marker from each side: had anything been echoed twice, it would arrive first.
    one.app.realtime.publisher.publish(destination, { n: 'end-one' });
    expect(JSON.parse((await onTwo.messages.next()).body)).toEqual({ n: 'end-one' });
    expect(JSON.parse((await onOne.messages.next()).body)).toEqual({ n: 'end-one' });
    two.app.realtime.publisher.publish(destination, { n: 'end-two' });
    expect(JSON.parse((await onOne.messages.next()).body)).toEqual({ n: 'end-two' });
    expect(JSON.parse((await onTwo.messages.next()).body)).toEqual({ n: 'end-two' });
    expect(onOne.messages.size + onTwo.messages.size).toBe(0);
    await onOne.close();
    await onTwo.close();
  });
});

describe('a realtime bus that does not answer', () => {
  it('fails the start with a message naming the bus, not a hang', async () => {
    await expect(
      connectBus({ url: 'nats://127.0.0.1:1', onMessage() {}, onError() {} }),
    ).rejects.toThrow('realtime bus: NATS at 127.0.0.1:1 does not answer');
  });
});
