/**
 * What a database refusal means, read from its SQLSTATE. pg and PGlite both report it as
 * `code` on the error they throw, which Drizzle wraps as `cause` of its own: one reading,
 * so both drivers answer alike.
 */
export function sqlStateOf(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    cause = cause.cause;
  }
  return undefined;
}

/** unique_violation: another row already holds the value. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/** A row is still referenced: foreign_key_violation, or restrict_violation (ON DELETE RESTRICT). */
export function isForeignKeyViolation(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === '23503' || state === '23001';
}

/** Values the database cannot take: too long, out of range, malformed, NUL or untranslatable. */
const invalidValues = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);

/**
 * What the caller did wrong when a statement was refused because of their input, for the
 * error handlers' last resort (the contract's bounds should have refused it first):
 * `conflict` when it clashes with stored rows (unique, foreign key), `invalid` when the
 * database cannot take a value (data exceptions above, or a value too large for an index,
 * 54000). Anything else is not the caller's doing.
 */
export function refusalOf(error: unknown): 'conflict' | 'invalid' | undefined {
  const state = sqlStateOf(error);
  if (state === undefined) return undefined;
  if (state === '23505' || state === '23503' || state === '23001') return 'conflict';
  if (invalidValues.has(state) || state === '54000') return 'invalid';
  return undefined;
}
