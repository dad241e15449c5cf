import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authUsers } from '../db/schema/index.ts';
import { createTestDatabase, type TestDatabase, testDrivers } from '../test/database.ts';
import { loggerOptions, redactUrl } from './logger.ts';

/** A logger configured as the server's, writing its lines into an array. */
function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = pino(loggerOptions({ logLevel: 'info', env: 'test' }), sink);
  return { log, lines };
}

const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$W2fQ0dq3bH5t0tLkQm7yEQ';

describe.each(testDrivers)('error logs on %s', (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(() => database.close());

  it('a failed insert logs the query and the violated constraint, not the bound values', async () => {
    const id = crypto.randomUUID();
    const email = `secret-person-${id}@example.test`;
    const row = { id, email, encryptedPassword: hash, aud: 'authenticated', role: 'authenticated' };
    await database.db.insert(authUsers).values(row);
    const failure = await database.db
      .insert(authUsers)
      .values(row)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);

    const { log, lines } = capturingLogger();
    log.error({ err: failure }, 'unhandled error');
    const line = lines.join('');
    expect(line).toContain('Failed query: insert into');
    expect(line).toContain('23505');
    expect(line).not.toContain(hash);
    expect(line).not.toContain(email);
    expect(line).not.toContain(id);
  });

  it('a value the database quotes back in its message is not logged either', async () => {
    const token = 'refresh-token-7f3a9c1e5b';
    const failure = await database.db.execute(sql`select ${token}::uuid`).then(
      () => undefined,
      (error: unknown) => error,
    );
    const { log, lines } = capturingLogger();
    log.error({ err: failure }, 'unhandled error');
    const line = lines.join('');
    expect(line).toContain('22P02');
    expect(line).not.toContain(token);
  });
});

describe('request URLs in logs', () => {
  it('keep the names of query parameters and drop every value', () => {
    expect(redactUrl('/wss?token=eyJabc&x=1')).toBe('/wss?token=[redacted]&x=[redacted]');
    expect(redactUrl('/auth/v1/verify?type=signup&token_hash=abc')).not.toContain('abc');
    expect(redactUrl('/api/user/user-data?userId=ann%40example.com')).not.toContain('ann');
  });

  it('leave URLs without a query alone', () => {
    expect(redactUrl('/api/health')).toBe('/api/health');
    const key = 'Qm9vay1zdGF0dXMta2V5LW9mLWZvcnR5LXRocmVlLWNo';
    expect(redactUrl(`/api/visits/${key}/leave?x=1`)).toBe(
      '/api/visits/[redacted]/leave?x=[redacted]',
    );
    expect(redactUrl(`/visit/${key}`)).toBe('/visit/[redacted]');
  });
});
