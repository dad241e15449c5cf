import { errorEnvelopeSchema } from '@upnext/contract/errors';
import type { ErrorCode } from '../lib/errors.ts';
import { statusOf } from '../lib/errors.ts';

/**
 * Error responses of a route for its schema, and a line for its OpenAPI description naming
 * every stable code it may answer with (grouped by status).
 */
export function errorDocs(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const response: Record<number, typeof errorEnvelopeSchema> = {};
  for (const status of byStatus.keys()) response[status] = errorEnvelopeSchema;
  const description = `Errors: ${[...byStatus]
    .map(([status, list]) => `${status} ${list.join(', ')}`)
    .join('; ')}.`;
  return { response, description };
}
