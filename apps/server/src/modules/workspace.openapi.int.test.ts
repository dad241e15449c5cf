import { endpoints } from '@upnext/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

type Operation = {
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

/** Every provider-workspace route, as the OpenAPI document must list it. */
const expected: Array<[string, string, string]> = [
  ['post', '/api/company', '201'],
  ['get', '/api/company/{companyId}', '200'],
  ['patch', '/api/company/{companyId}', '200'],
  ['get', '/api/company/{id}/users', '200'],
  ['post', '/api/company/{id}/users', '201'],
  ['patch', '/api/company/{companyId}/users/{userId}', '200'],
  ['delete', '/api/company/{companyId}/users/{userId}', '200'],
  ['get', '/api/user/user-data', '200'],
  ['patch', '/api/user/profile', '200'],
  ['get', '/api/company/queues', '200'],
  ['post', '/api/company/queues', '201'],
  ['get', '/api/company/queues/{queueId}', '200'],
  ['patch', '/api/company/queues/{queueId}', '200'],
  ['delete', '/api/company/queues/{queueId}', '200'],
  ['get', '/api/queues/by-code/{code}', '200'],
  ['get', '/api/queues/{queueId}/sub-queues', '200'],
  ['post', '/api/queues/{queueId}/sub-queues', '201'],
  ['get', '/api/queues/{queueId}/sub-queues/{subQueueId}', '200'],
  ['patch', '/api/queues/{queueId}/sub-queues/{subQueueId}', '200'],
  ['delete', '/api/queues/{queueId}/sub-queues/{subQueueId}', '200'],
  ['get', '/api/queues/{queueId}/service-types', '200'],
  ['post', '/api/queues/{queueId}/service-types', '201'],
  ['get', '/api/queues/{queueId}/service-types/{serviceTypeId}', '200'],
  ['patch', '/api/queues/{queueId}/service-types/{serviceTypeId}', '200'],
  ['delete', '/api/queues/{queueId}/service-types/{serviceTypeId}', '200'],
  ['get', '/api/queues/{queueId}/service-areas', '200'],
  ['post', '/api/queues/{queueId}/service-areas', '201'],
  ['get', '/api/queues/{queueId}/service-areas/{serviceAreaId}', '200'],
  ['patch', '/api/queues/{queueId}/service-areas/{serviceAreaId}', '200'],
  ['delete', '/api/queues/{queueId}/service-areas/{serviceAreaId}', '200'],
  ['get', '/api/queues/client-promotions', '200'],
  ['post', '/api/queues/client-promotions', '201'],
  ['patch', '/api/queues/client-promotions/{promotionId}', '200'],
  ['delete', '/api/queues/client-promotions/{promotionId}', '200'],
  ['get', '/api/queues/requests', '200'],
  ['post', '/api/queues/requests', '201'],
  ['patch', '/api/queues/requests/{requestId}', '200'],
  ['delete', '/api/queues/requests/{requestId}', '200'],
];

describe('the provider workspace in the OpenAPI document', () => {
  let database: TestDatabase;
  let t: TestApp;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    t = await buildTestApp(database);
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    paths = response.json().paths;
  });
  afterAll(async () => {
    await t?.app.close();
    await database?.close();
  });

  it.each(expected)(
    '%s %s has request and response schemas and names its error codes',
    (method, path, success) => {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path} missing`).toBeDefined();
      if (!operation) return;
      expect(operation.summary).toBeTruthy();
      expect(operation.description).toMatch(/^Errors: .*\d{3} [a-z_]+/);
      expect(operation.responses[success]?.content?.['application/json']?.schema).toBeDefined();
      const errorStatuses = Object.keys(operation.responses).filter((s) => Number(s) >= 400);
      expect(errorStatuses.length).toBeGreaterThan(0);
      for (const status of errorStatuses) {
        expect(operation.responses[status]?.content?.['application/json']?.schema).toBeDefined();
      }
      if (['post', 'patch'].includes(method)) {
        expect(operation.requestBody?.content['application/json']?.schema).toBeDefined();
      }
      const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect(declared.sort()).toEqual(pathParams.sort());
    },
  );

  it.each(Object.entries(endpoints))(
    "the table's %s is documented as declared",
    (_name, endpoint) => {
      const path = `/api${endpoint.path.replace(/:(\w+)/g, '{$1}')}`;
      const operation = paths[path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${path} missing`).toBeDefined();
      expect(operation?.summary).toBe(endpoint.summary);
      for (const status of Object.keys(endpoint.responses)) {
        expect(operation?.responses[status]?.content?.['application/json']?.schema).toBeDefined();
      }
      for (const code of endpoint.errors) expect(operation?.description).toContain(code);
    },
  );

  it('has no /api route registered outside the table', () => {
    const fromTable = Object.values(endpoints).map(
      (e) => `${e.method.toLowerCase()} /api${e.path.replace(/:(\w+)/g, '{$1}')}`,
    );
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.filter((route) => route.includes(' /api/')).sort()).toEqual(fromTable.sort());
  });

  it('documents the workspace error codes with their statuses', () => {
    const description = paths['/api/company/{companyId}/users/{userId}']?.patch?.description ?? '';
    expect(description).toContain('409 last_owner, invite_pending');
    expect(description).toContain('403 forbidden, owner_protected');
  });
});
