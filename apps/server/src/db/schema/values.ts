import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * `column in ('a', 'b')` for a check constraint, from the tuple that also types the column (the
 * contract's where the API shows the values), so the allowed values are written once. Literal
 * SQL, not parameters: a check constraint cannot take them, and a partial index is used only
 * by a statement whose condition shows its predicate's values.
 */
export function isOneOf(column: AnyColumn | SQL, values: readonly string[]): SQL {
  const list = values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
  return sql`${column} in (${sql.raw(list)})`;
}
