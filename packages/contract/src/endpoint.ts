import type { z } from 'zod';

/** PRODUCT.md: GET reads, POST creates (and the spec's verb-paths), PATCH updates, DELETE removes. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * One call of the queue API: what the server registers (route, validation, OpenAPI) and what
 * the web calls, from the same object. `path` is under `/api` with `:name` placeholders;
 * `responses` maps each success status to the schema of its `data` (every success body is
 * `{ data }`); `errors` names the stable codes the call may answer with (their statuses come
 * from the server's one code table).
 */
export type Endpoint = {
  method: HttpMethod;
  path: string;
  /** OpenAPI grouping. */
  tag: string;
  summary: string;
  /** The rule behind the call, before the list of error codes. */
  description?: string;
  /** Anyone may call it: documented without a bearer token. */
  public?: true;
  params?: z.ZodType;
  /** Request headers the call reads (lower-case names), e.g. an idempotency key. */
  headers?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: Readonly<Record<number, z.ZodType>>;
  errors: readonly string[];
};

/** Declares an endpoint, keeping its literal types (path, schemas, codes) for both sides. */
export function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}

/** Errors every signed-in call may answer with. */
export const signedInErrors = ['validation_failed', 'unauthorized', 'forbidden'] as const;

type SchemaOf<E, K extends 'params' | 'headers' | 'query' | 'body'> =
  E extends Record<K, infer S extends z.ZodType> ? S : never;

/** What `data` holds on success: the union over the endpoint's success statuses. */
export type EndpointData<E extends Endpoint> = {
  [S in keyof E['responses']]: z.output<E['responses'][S]>;
}[keyof E['responses']];

/** Path variables by name (URL-encoded by the caller); ids and numbers alike. */
export type EndpointParams<E extends Endpoint> = {
  [K in keyof z.output<SchemaOf<E, 'params'>>]: string | number;
};
export type EndpointHeaders<E extends Endpoint> = z.input<SchemaOf<E, 'headers'>>;
export type EndpointQuery<E extends Endpoint> = z.input<SchemaOf<E, 'query'>>;
export type EndpointBody<E extends Endpoint> = z.input<SchemaOf<E, 'body'>>;

/** The input of a call: exactly the parts the endpoint declares. */
export type EndpointInput<E extends Endpoint> = Part<
  'params',
  SchemaOf<E, 'params'>,
  EndpointParams<E>
> &
  Part<'headers', SchemaOf<E, 'headers'>, EndpointHeaders<E>> &
  Part<'query', SchemaOf<E, 'query'>, EndpointQuery<E>> &
  Part<'body', SchemaOf<E, 'body'>, EndpointBody<E>>;

/** Absent when not declared, optional when every field is, required otherwise. */
type Part<K extends string, S, V> = [S] extends [never]
  ? { [P in K]?: never }
  : object extends V
    ? { [P in K]?: V }
    : { [P in K]: V };
