import { okSchema } from '@upnext/contract/common';
import { dataEnvelope } from '@upnext/contract/errors';
import {
  createQueueBodySchema,
  joinCodeParamsSchema,
  listQueuesQuerySchema,
  type QueueChildTypes,
  queueChildParamsSchema,
  queueParamsSchema,
  queueSchema,
  serviceAreaParts,
  serviceTypeParts,
  subQueueParts,
  updateQueueBodySchema,
} from '@upnext/contract/queues';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Caller } from '../../http/caller.ts';
import { routeDoc, signedIn } from '../../http/route-docs.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import * as children from './queue-children.service.ts';
import * as service from './queues.service.ts';

const doc = (summary: string, success: Record<number, z.ZodType>, ...codes: ErrorCode[]) =>
  routeDoc('queues', summary, success, codes);
const read: ErrorCode[] = ['validation_failed', 'unauthorized', 'not_found'];
const write: ErrorCode[] = [...signedIn, 'not_found'];
const ok = { data: { ok: true as const } };

export const queueRoutes: FastifyPluginAsyncZod<service.QueueDeps> = async (app, deps) => {
  // Queues --------------------------------------------------------------------------------
  app.get(
    '/company/queues',
    {
      schema: {
        ...doc(
          "A company's queues: all of them for its members, the active public ones for anyone else",
          { 200: dataEnvelope(z.array(queueSchema)) },
          'validation_failed',
          'unauthorized',
        ),
        querystring: listQueuesQuerySchema,
      },
    },
    async (request) => ({ data: await service.listQueues(deps, request.caller, request.query) }),
  );
  app.post(
    '/company/queues',
    {
      schema: {
        ...doc(
          'Create a queue (owner, admin); its join code is generated',
          { 201: dataEnvelope(queueSchema) },
          ...write,
        ),
        body: createQueueBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { data: await service.createQueue(deps, request.caller, request.body) };
    },
  );
  app.get(
    '/company/queues/:queueId',
    {
      schema: {
        ...doc(
          'A queue: members always; visitors when it is active and public, unlisted, or private and approved',
          { 200: dataEnvelope(queueSchema) },
          ...read,
        ),
        params: queueParamsSchema,
      },
    },
    async (request) => ({
      data: await service.getQueue(deps, request.caller, request.params.queueId),
    }),
  );
  app.patch(
    '/company/queues/:queueId',
    {
      schema: {
        ...doc(
          'Change a queue, archive or restore it, or issue a new join code (owner, admin)',
          { 200: dataEnvelope(queueSchema) },
          ...write,
        ),
        params: queueParamsSchema,
        body: updateQueueBodySchema,
      },
    },
    async (request) => ({
      data: await service.updateQueue(deps, request.caller, request.params.queueId, request.body),
    }),
  );
  app.delete(
    '/company/queues/:queueId',
    {
      schema: {
        ...doc('Archive a queue (owner, admin)', { 200: dataEnvelope(queueSchema) }, ...write),
        params: queueParamsSchema,
      },
    },
    async (request) => ({
      data: await service.archiveQueue(deps, request.caller, request.params.queueId),
    }),
  );
  app.get(
    '/queues/by-code/:code',
    {
      schema: {
        ...doc(
          'Find a queue by its join code (the /join entry; anonymous callers welcome)',
          { 200: dataEnvelope(queueSchema) },
          'validation_failed',
          'unauthorized',
          'join_request_required',
          'not_found',
        ),
        params: joinCodeParamsSchema,
      },
    },
    async (request) => ({
      data: await service.getQueueByCode(deps, request.caller, request.params.code),
    }),
  );

  registerQueueChild(app, deps, {
    path: 'sub-queues',
    noun: 'sub-queue',
    schemas: subQueueParts,
    service: children.subQueues,
    docs: {
      list: "A queue's sub-queues (staff assignments for members only)",
      create: 'Create a sub-queue with its assigned staff (owner, admin)',
      update: 'Rename a sub-queue or replace its staff (owner, admin)',
      remove: 'Delete a sub-queue (owner, admin); its sessions stay',
    },
  });
  registerQueueChild(app, deps, {
    path: 'service-types',
    noun: 'service type',
    schemas: serviceTypeParts,
    service: children.serviceTypes,
    docs: {
      list: "A queue's service types (visitors: active ones)",
      remove: 'Delete a service type no session offers (owner, admin)',
    },
    removeCodes: ['in_use'],
  });
  registerQueueChild(app, deps, {
    path: 'service-areas',
    noun: 'service area',
    schemas: serviceAreaParts,
    service: children.serviceAreas,
    docs: { list: "A queue's service areas (branches)" },
  });
};

type App = Parameters<FastifyPluginAsyncZod<service.QueueDeps>>[0];

type Schemas = { schema: z.ZodType; createBody: z.ZodType; updateBody: z.ZodType };

/** One kind of a queue's parts, as `registerQueueChild` mounts it. */
interface QueueChildRoutes<S extends Schemas, T extends QueueChildTypes<S> = QueueChildTypes<S>> {
  /** The path segment under `/queues/:queueId/`. */
  path: string;
  noun: string;
  schemas: S;
  service: {
    list(deps: service.QueueDeps, caller: Caller, queueId: string): Promise<T['item'][]>;
    get(deps: service.QueueDeps, caller: Caller, queueId: string, id: string): Promise<T['item']>;
    create(
      deps: service.QueueDeps,
      caller: Caller,
      queueId: string,
      body: T['create'],
    ): Promise<T['item']>;
    update(
      deps: service.QueueDeps,
      caller: Caller,
      queueId: string,
      id: string,
      body: T['update'],
    ): Promise<T['item']>;
    remove(deps: service.QueueDeps, caller: Caller, queueId: string, id: string): Promise<void>;
  };
  /** Summaries that say more than the defaults ("Create a <noun> (owner, admin)", ...). */
  docs: { list: string; create?: string; update?: string; remove?: string };
  /** Errors a delete may answer besides the common ones. */
  removeCodes?: ErrorCode[];
}

/** The five routes every part of a queue has: list, create, get, change, delete. */
function registerQueueChild<S extends Schemas>(
  app: App,
  deps: service.QueueDeps,
  { path, noun, schemas, service: parts, docs, removeCodes = [] }: QueueChildRoutes<S>,
) {
  const list = `/queues/:queueId/${path}`;
  const item = `${list}/:id`;
  app.get(
    list,
    {
      schema: {
        ...doc(docs.list, { 200: dataEnvelope(z.array(schemas.schema)) }, ...read),
        params: queueParamsSchema,
      },
    },
    async (request) => ({
      data: await parts.list(deps, request.caller, request.params.queueId),
    }),
  );
  app.post(
    list,
    {
      schema: {
        ...doc(
          docs.create ?? `Create a ${noun} (owner, admin)`,
          { 201: dataEnvelope(schemas.schema) },
          ...write,
        ),
        params: queueParamsSchema,
        body: schemas.createBody,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return {
        // The validator ran `schemas.create`; TypeScript cannot see through the generic.
        data: await parts.create(
          deps,
          request.caller,
          request.params.queueId,
          request.body as z.output<S['createBody']>,
        ),
      };
    },
  );
  app.get(
    item,
    {
      schema: {
        ...doc(`A ${noun}`, { 200: dataEnvelope(schemas.schema) }, ...read),
        params: queueChildParamsSchema,
      },
    },
    async (request) => ({
      data: await parts.get(deps, request.caller, request.params.queueId, request.params.id),
    }),
  );
  app.patch(
    item,
    {
      schema: {
        ...doc(
          docs.update ?? `Change a ${noun} (owner, admin)`,
          { 200: dataEnvelope(schemas.schema) },
          ...write,
        ),
        params: queueChildParamsSchema,
        body: schemas.updateBody,
      },
    },
    async (request) => ({
      data: await parts.update(
        deps,
        request.caller,
        request.params.queueId,
        request.params.id,
        request.body as z.output<S['updateBody']>,
      ),
    }),
  );
  app.delete(
    item,
    {
      schema: {
        ...doc(
          docs.remove ?? `Delete a ${noun} (owner, admin)`,
          { 200: dataEnvelope(okSchema) },
          ...write,
          ...removeCodes,
        ),
        params: queueChildParamsSchema,
      },
    },
    async (request) => {
      await parts.remove(deps, request.caller, request.params.queueId, request.params.id);
      return ok;
    },
  );
}
