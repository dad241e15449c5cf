import { queueStatuses } from '@upnext/contract/queues';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { queues } from './queues.ts';
import { isOneOf } from './values.ts';

const dialect = new PgDialect();

describe('isOneOf', () => {
  it("writes the contract's tuple as the literal list a check constraint needs", () => {
    const query = dialect.sqlToQuery(isOneOf(queues.status, queueStatuses));
    expect(query.sql).toBe(`"queues"."status" in ('active', 'archived')`);
    expect(query.params).toEqual([]);
  });

  it('escapes quotes inside a value', () => {
    expect(dialect.sqlToQuery(isOneOf(queues.status, ["it's"])).sql).toBe(
      `"queues"."status" in ('it''s')`,
    );
  });
});
