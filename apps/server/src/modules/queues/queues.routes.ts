import { okSchema } from '@upnext/contract/common';
import { dataEnvelope } from '@upnext/contract/errors';
import {
  createQueueBodySchema,
  createServiceAreaBodySchema,
  createServiceTypeBodySchema,
  createSubQueueBodySchema,
  joinCodeParamsSchema,
  listQueuesQuerySchema,
  queueIdParamsSchema,
  queueParamsSchema,
  queueSchema,
  serviceAreaParamsSchema,
  serviceAreaSchema,
  serviceTypeParamsSchema,
  serviceTypeSchema,
  subQueueParamsSchema,
  subQueueSchema,
  updateQueueBodySchema,
  updateServiceAreaBodySchema,
  updateServiceTypeBodySchema,
  updateSubQueueBodySchema,
} from '@upnext/contract/queues';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeDoc, signedIn } from '../../http/route-docs.ts';
import type { ErrorCode } from '../../lib/errors.ts';
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
    '/company/queues/:qid',
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
    async (request) => ({ data: await service.getQueue(deps, request.caller, request.params.qid) }),
  );
  app.patch(
    '/company/queues/:qid',
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
      data: await service.updateQueue(deps, request.caller, request.params.qid, request.body),
    }),
  );
  app.delete(
    '/company/queues/:qid',
    {
      schema: {
        ...doc('Archive a queue (owner, admin)', { 200: dataEnvelope(queueSchema) }, ...write),
        params: queueParamsSchema,
      },
    },
    async (request) => ({
      data: await service.archiveQueue(deps, request.caller, request.params.qid),
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

  // Sub-queues ----------------------------------------------------------------------------
  app.get(
    '/queues/:qid/sub-queues',
    {
      schema: {
        ...doc(
          "A queue's sub-queues (staff assignments for members only)",
          { 200: dataEnvelope(z.array(subQueueSchema)) },
          ...read,
        ),
        params: queueParamsSchema,
      },
    },
    async (request) => ({
      data: await service.listSubQueues(deps, request.caller, request.params.qid),
    }),
  );
  app.post(
    '/queues/:qid/sub-queues',
    {
      schema: {
        ...doc(
          'Create a sub-queue with its assigned staff (owner, admin)',
          { 201: dataEnvelope(subQueueSchema) },
          ...write,
        ),
        params: queueParamsSchema,
        body: createSubQueueBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return {
        data: await service.createSubQueue(deps, request.caller, request.params.qid, request.body),
      };
    },
  );
  app.get(
    '/queues/:qid/sub-queues/:id',
    {
      schema: {
        ...doc('A sub-queue', { 200: dataEnvelope(subQueueSchema) }, ...read),
        params: subQueueParamsSchema,
      },
    },
    async (request) => ({
      data: await service.getSubQueue(deps, request.caller, request.params.qid, request.params.id),
    }),
  );
  app.patch(
    '/queues/:qid/sub-queues/:id',
    {
      schema: {
        ...doc(
          'Rename a sub-queue or replace its staff (owner, admin)',
          { 200: dataEnvelope(subQueueSchema) },
          ...write,
        ),
        params: subQueueParamsSchema,
        body: updateSubQueueBodySchema,
      },
    },
    async (request) => ({
      data: await service.updateSubQueue(
        deps,
        request.caller,
        request.params.qid,
        request.params.id,
        request.body,
      ),
    }),
  );
  app.delete(
    '/queues/:qid/sub-queues/:id',
    {
      schema: {
        ...doc(
          'Delete a sub-queue (owner, admin); its sessions stay',
          { 200: dataEnvelope(okSchema) },
          ...write,
        ),
        params: subQueueParamsSchema,
      },
    },
    async (request) => {
      await service.deleteSubQueue(deps, request.caller, request.params.qid, request.params.id);
      return ok;
    },
  );

  // Service types -------------------------------------------------------------------------
  app.get(
    '/queues/:qid/service-types',
    {
      schema: {
        ...doc(
          "A queue's service types (visitors: active ones)",
          { 200: dataEnvelope(z.array(serviceTypeSchema)) },
          ...read,
        ),
        params: queueParamsSchema,
      },
    },
    async (request) => ({
      data: await service.listServiceTypes(deps, request.caller, request.params.qid),
    }),
  );
  app.post(
    '/queues/:qid/service-types',
    {
      schema: {
        ...doc(
          'Create a service type (owner, admin)',
          { 201: dataEnvelope(serviceTypeSchema) },
          ...write,
        ),
        params: queueParamsSchema,
        body: createServiceTypeBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return {
        data: await service.createServiceType(
          deps,
          request.caller,
          request.params.qid,
          request.body,
        ),
      };
    },
  );
  app.get(
    '/queues/:qid/service-types/:id',
    {
      schema: {
        ...doc('A service type', { 200: dataEnvelope(serviceTypeSchema) }, ...read),
        params: serviceTypeParamsSchema,
      },
    },
    async (request) => ({
      data: await service.getServiceType(
        deps,
        request.caller,
        request.params.qid,
        request.params.id,
      ),
    }),
  );
  app.patch(
    '/queues/:qid/service-types/:id',
    {
      schema: {
        ...doc(
          'Change a service type (owner, admin)',
          { 200: dataEnvelope(serviceTypeSchema) },
          ...write,
        ),
        params: serviceTypeParamsSchema,
        body: updateServiceTypeBodySchema,
      },
    },
    async (request) => ({
      data: await service.updateServiceType(
        deps,
        request.caller,
        request.params.qid,
        request.params.id,
        request.body,
      ),
    }),
  );
  app.delete(
    '/queues/:qid/service-types/:id',
    {
      schema: {
        ...doc(
          'Delete a service type no session offers (owner, admin)',
          { 200: dataEnvelope(okSchema) },
          ...write,
          'in_use',
        ),
        params: serviceTypeParamsSchema,
      },
    },
    async (request) => {
      await service.deleteServiceType(deps, request.caller, request.params.qid, request.params.id);
      return ok;
    },
  );

  // Service areas -------------------------------------------------------------------------
  app.get(
    '/queues/:queueId/service-areas',
    {
      schema: {
        ...doc(
          "A queue's service areas (branches)",
          { 200: dataEnvelope(z.array(serviceAreaSchema)) },
          ...read,
        ),
        params: queueIdParamsSchema,
      },
    },
    async (request) => ({
      data: await service.listServiceAreas(deps, request.caller, request.params.queueId),
    }),
  );
  app.post(
    '/queues/:queueId/service-areas',
    {
      schema: {
        ...doc(
          'Create a service area (owner, admin)',
          { 201: dataEnvelope(serviceAreaSchema) },
          ...write,
        ),
        params: queueIdParamsSchema,
        body: createServiceAreaBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return {
        data: await service.createServiceArea(
          deps,
          request.caller,
          request.params.queueId,
          request.body,
        ),
      };
    },
  );
  app.get(
    '/queues/:queueId/service-areas/:id',
    {
      schema: {
        ...doc('A service area', { 200: dataEnvelope(serviceAreaSchema) }, ...read),
        params: serviceAreaParamsSchema,
      },
    },
    async (request) => ({
      data: await service.getServiceArea(
        deps,
        request.caller,
        request.params.queueId,
        request.params.id,
      ),
    }),
  );
  app.patch(
    '/queues/:queueId/service-areas/:id',
    {
      schema: {
        ...doc(
          'Change a service area (owner, admin)',
          { 200: dataEnvelope(serviceAreaSchema) },
          ...write,
        ),
        params: serviceAreaParamsSchema,
        body: updateServiceAreaBodySchema,
      },
    },
    async (request) => ({
      data: await service.updateServiceArea(
        deps,
        request.caller,
        request.params.queueId,
        request.params.id,
        request.body,
      ),
    }),
  );
  app.delete(
    '/queues/:queueId/service-areas/:id',
    {
      schema: {
        ...doc('Delete a service area (owner, admin)', { 200: dataEnvelope(okSchema) }, ...write),
        params: serviceAreaParamsSchema,
      },
    },
    async (request) => {
      await service.deleteServiceArea(
        deps,
        request.caller,
        request.params.queueId,
        request.params.id,
      );
      return ok;
    },
  );
};
