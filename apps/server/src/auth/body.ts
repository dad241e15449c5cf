import { isPlainText } from '@upnext/contract/common';
import { z } from 'zod';
import { errors, invalidRequest } from './errors.ts';

/**
 * auth-js sends absent options as JSON null: every optional field accepts null and absence
 * alike, and unknown fields (gotrue_meta_security, options, factorId, ...) are ignored.
 * Every field is bounded (issue 14) with the contract's text rule: no control characters.
 */
const plainString = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => isPlainText(value), 'must not contain control characters');

/** Emails, phones, codes, names, ...: 255 characters fit any index in UTF-8. */
export const optionalString = plainString(255).nullish();
/** A redirect address. */
export const optionalUrl = plainString(2048).nullish();
/** An OpenID Connect id_token or a provider's access token. */
export const optionalJwt = plainString(16 * 1024).nullish();
/** Passwords are only hashed, never stored or shown: any characters, but bounded. */
export const optionalPassword = z.string().max(1024).nullish();

/** A WebAuthn credential response (JSON of base64url fields): its checks are the library's. */
const WEBAUTHN_RESPONSE_MAX_BYTES = 64 * 1024;
export const webauthnResponse = z
  .record(z.string(), z.unknown())
  .refine(
    (value) => Buffer.byteLength(JSON.stringify(value)) <= WEBAUTHN_RESPONSE_MAX_BYTES,
    `must be at most ${WEBAUTHN_RESPONSE_MAX_BYTES} bytes of JSON`,
  )
  .nullish();

/**
 * user_metadata and app_metadata travel in every access token (an `Authorization` header),
 * so they stay small: at most this many bytes of JSON, this deep, with strings that
 * PostgreSQL's jsonb stores (no NUL, no lone surrogates) and no other control characters
 * than tabs and line breaks.
 */
export const METADATA_MAX_BYTES = 4096;
const METADATA_MAX_DEPTH = 8;

/** Why `value` is not acceptable metadata, or undefined. Iterative: depth is hostile input. */
function metadataProblem(value: Record<string, unknown>): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item === 'string') {
      if (!isPlainText(item, { multiline: true })) return 'must not contain control characters';
    } else if (item !== null && typeof item === 'object') {
      if (depth > METADATA_MAX_DEPTH) return `must not nest deeper than ${METADATA_MAX_DEPTH}`;
      for (const [key, child] of Object.entries(item)) {
        if (!isPlainText(key)) return 'must not contain control characters';
        stack.push([child, depth + 1]);
      }
    }
  }
  if (Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES) {
    return `must be at most ${METADATA_MAX_BYTES} bytes of JSON`;
  }
  return undefined;
}

export const metadata = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    const problem = metadataProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .nullish();

/**
 * `data` merges into metadata; a null value removes that key (GoTrue's rule). The merged
 * metadata keeps the size bound, so it cannot grow past it a patch at a time.
 */
export function mergeMetadata(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (Buffer.byteLength(JSON.stringify(merged)) > METADATA_MAX_BYTES) {
    throw errors.validation(
      `Invalid request: metadata must be at most ${METADATA_MAX_BYTES} bytes of JSON`,
    );
  }
  return merged;
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidRequest(issue?.path.join('.') ?? '', issue?.message ?? 'invalid');
  }
  return result.data;
}

/** Query string values as Fastify gives them: string, repeated (array) or absent. */
export function queryParam(query: unknown, name: string): string | undefined {
  const raw = (query as Record<string, unknown> | undefined)?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string') return undefined;
  // The bounds of body fields hold for query parameters too.
  if (value.length > 2048 || !isPlainText(value)) {
    throw errors.validation(
      `Invalid request: ${name}: must be plain text of at most 2048 characters`,
    );
  }
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids in paths and bodies are checked before a query (PostgreSQL refuses a malformed uuid). */
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);
