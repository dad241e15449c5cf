import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from './endpoints.ts';

const table = Object.entries(endpoints);
const placeholders = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** Spec §7's paths keep the placeholder names the spec gives them ({id}); a queue is {queueId}. */
const specPaths = new Set([
  '/company/{id}/users',
  '/queues/sessions/{sessionId}/slots/{slotNo}/tokens',
  '/queues/sessions/{sessionId}/services',
  '/queues/sessions/services/{serviceId}/slots',
]);

/** Everywhere else, one name per thing. */
const canonical = new Set([
  'companyId',
  'userId',
  'queueId',
  'subQueueId',
  'serviceTypeId',
  'serviceAreaId',
  'promotionId',
  'requestId',
  'sessionId',
  'serviceId',
  'slotNo',
  'tokenId',
  'meetingId',
  'paymentId',
  'checkoutId',
  'provider',
  'code',
  'action',
  // A status link's key (visits.ts).
  'key',
]);

describe('the endpoint table', () => {
  it.each(table)('%s: names its placeholders as the spec does, or canonically', (_n, e) => {
    if (specPaths.has(e.path.replace(/:(\w+)/g, '{$1}'))) return;
    for (const name of placeholders(e.path)) expect(canonical).toContain(name);
  });

  it.each(table)("%s: the path's placeholders are exactly its params", (_name, endpoint) => {
    const params = 'params' in endpoint ? endpoint.params : undefined;
    const declared = params instanceof z.ZodObject ? Object.keys(params.shape) : [];
    expect(placeholders(endpoint.path).sort()).toEqual(declared.sort());
  });

  it('has one endpoint per method and path', () => {
    const keys = table.map(([, e]) => `${e.method} ${e.path.replace(/:\w+/g, ':')}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(table)('%s: declares its success statuses and well-formed error codes', (_n, e) => {
    const statuses = Object.keys(e.responses).map(Number);
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status >= 200 && status < 300).toBe(true);
    for (const code of e.errors) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});
