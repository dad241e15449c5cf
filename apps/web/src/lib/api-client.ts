import type { Endpoint, EndpointData, EndpointInput } from '@upnext/contract/endpoint';
import { buildPath } from '@upnext/contract/routes';
import { getFreshAccessToken } from './auth-session.ts';
import { currentLanguage } from './language.ts';

/** The queue service lives under `/api` on the app's own origin (spec §7). */
const API_BASE = '/api';

/** PRODUCT.md: GET reads, POST creates (and the spec's verb-paths), PATCH updates, DELETE removes. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A failed call: the server's error envelope, or `network_error` when no answer came back. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly requestId: string | undefined;
  /** True when `message` is the server's own human-readable reason (safe to show). */
  readonly fromServer: boolean;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: unknown;
    requestId?: string | undefined;
    fromServer: boolean;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.fromServer = init.fromServer;
  }
}

export interface ApiRequestOptions {
  /** Values for the `:name` placeholders of the path pattern; URL-encoded. */
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string | undefined>;
}

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function buildUrl(pattern: string, options: ApiRequestOptions): string {
  const path = buildPath(pattern, options.params);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const query = search.toString();
  return `${API_BASE}${path}${query ? `?${query}` : ''}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorFromBody(status: number, body: unknown): ApiError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError({
      status,
      code: error.code,
      message: error.message,
      details: error.details,
      requestId: typeof error.requestId === 'string' ? error.requestId : undefined,
      fromServer: true,
    });
  }
  // A proxy or gateway answered (HTML 502 page, empty 503): no envelope, no reason to show.
  return new ApiError({
    status,
    code: 'http_error',
    message: `Request failed with status ${status}`,
    fromServer: false,
  });
}

/**
 * Call the queue service. Resolves with the `data` of the `{ data }` envelope; rejects with
 * an ApiError. No client-side timeout (spec §9): callers cancel through `signal`.
 */
export async function apiRequest<T>(
  method: HttpMethod,
  pattern: string,
  options: ApiRequestOptions = {},
): Promise<T> {
  const url = buildUrl(pattern, options);
  // The language the visitor reads the page in: what the server writes their messages in.
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': currentLanguage() });
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
  // Fresh from the auth client: a token close to expiry is refreshed before it is sent.
  const token = await getFreshAccessToken();
  if (token) {
    headers.set('Authorization', `Bearer ${token}`);
    headers.set('X-user-timezone', browserTimeZone());
  }
  const init: RequestInit = { method, headers };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (cause) {
    // A cancelled query is not a failure: let TanStack Query see the AbortError as is.
    if (options.signal?.aborted) throw cause;
    throw new ApiError({
      status: 0,
      code: 'network_error',
      message: 'The server could not be reached.',
      fromServer: false,
      cause,
    });
  }

  const body = await readJson(response);
  if (!response.ok) throw errorFromBody(response.status, body);
  return (isRecord(body) ? body.data : undefined) as T;
}

export const api = {
  /**
   * Call one endpoint of the contract's table: its path, method and input parts, typed; resolves
   * with the `data` it declares.
   */
  call: <E extends Endpoint>(
    endpoint: E,
    input: EndpointInput<E> & { signal?: AbortSignal | undefined },
  ): Promise<EndpointData<E>> => {
    const { signal, ...parts } = input;
    return apiRequest<EndpointData<E>>(endpoint.method, endpoint.path, {
      ...(parts as ApiRequestOptions),
      ...(signal ? { signal } : {}),
    });
  },
  /**
   * `call` for an endpoint named by its type (`import type`) and its address only, so its
   * schemas, and zod, stay out of the page's code (the wall-screen boards, `light-paths.ts`).
   */
  callAt: <E extends Endpoint>(
    address: Pick<E, 'method' | 'path'>,
    input: EndpointInput<E> & { signal?: AbortSignal | undefined },
  ): Promise<EndpointData<E>> => api.call(address as E, input),
};
