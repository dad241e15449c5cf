import type { EndpointBody } from '@upnext/contract/endpoint';
import { IDEMPOTENCY_KEY_HEADER, tokenEndpoints } from '@upnext/contract/tokens';
import { api } from '../../lib/api-client.ts';

/**
 * The token calls more than one feature makes (the visitor's page and the live console); each
 * feature keeps its own query keys and decides what a change invalidates on its screens.
 */

/**
 * `POST /queues/sessions/tokens`: take a walk-in token, or staff issue one for a visitor. One
 * idempotency key per attempt: a repeat of the request answers the same token.
 */
export function takeToken(
  input: EndpointBody<typeof tokenEndpoints.takeToken>,
  idempotencyKey?: string,
) {
  return api.call(tokenEndpoints.takeToken, {
    body: input,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

/** `POST /queues/sessions/tokens-cancel`: its holder or staff cancel a token (a slot frees up). */
export function cancelToken(input: EndpointBody<typeof tokenEndpoints.cancelToken>) {
  return api.call(tokenEndpoints.cancelToken, { body: input });
}

/** `POST /queues/sessions/tokens-query`: a session's tokens (staff) or the caller's own. */
export function queryTokens(
  query: EndpointBody<typeof tokenEndpoints.queryTokens>,
  signal?: AbortSignal,
) {
  return api.call(tokenEndpoints.queryTokens, { body: query, signal });
}
