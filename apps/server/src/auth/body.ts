import { z } from 'zod';
import { AuthError } from './errors.ts';

/**
 * auth-js sends absent options as JSON null: every optional field accepts null and absence
 * alike, and unknown fields (gotrue_meta_security, options, factorId, ...) are ignored.
 */
export const optionalString = z.string().nullish();
export const metadata = z.record(z.string(), z.unknown()).nullish();

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new AuthError(
      400,
      'validation_failed',
      `Invalid request: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}`,
    );
  }
  return result.data;
}

/** Query string values as Fastify gives them: string, repeated (array) or absent. */
export function queryParam(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}
