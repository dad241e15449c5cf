import { okSchema } from '@upnext/contract/common';
import { dataEnvelope } from '@upnext/contract/errors';
import {
  createJoinRequestBodySchema,
  decideJoinRequestBodySchema,
  joinRequestParamsSchema,
  joinRequestSchema,
  listJoinRequestsQuerySchema,
} from '@upnext/contract/requests';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeDoc, signedIn } from '../../http/route-docs.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import * as service from './requests.service.ts';

const doc = (summary: string, success: Record<number, z.ZodType>, ...codes: ErrorCode[]) =>
  routeDoc('join requests', summary, success, codes);

export const requestRoutes: FastifyPluginAsyncZod<service.RequestDeps> = async (app, deps) => {
  app.get(
    '/queues/requests',
    {
      schema: {
        ...doc(
          "Join requests: a queue's (owner, admin) with queueId, else the caller's own",
          { 200: dataEnvelope(z.array(joinRequestSchema)) },
          ...signedIn,
          'not_found',
        ),
        querystring: listJoinRequestsQuerySchema,
      },
    },
    async (request) => ({
      data: await service.listJoinRequests(deps, request.caller, request.query),
    }),
  );
  app.post(
    '/queues/requests',
    {
      schema: {
        ...doc(
          'Ask to join a private queue (201 new; 200 when already asked)',
          { 200: dataEnvelope(joinRequestSchema), 201: dataEnvelope(joinRequestSchema) },
          'validation_failed',
          'unauthorized',
          'not_found',
          'join_request_not_needed',
        ),
        body: createJoinRequestBodySchema,
      },
    },
    async (request, reply) => {
      const result = await service.createRequest(deps, request.caller, request.body);
      reply.code(result.created ? 201 : 200);
      return { data: result.request };
    },
  );
  app.patch(
    '/queues/requests/:id',
    {
      schema: {
        ...doc(
          'Approve or reject a join request (owner, admin)',
          { 200: dataEnvelope(joinRequestSchema) },
          ...signedIn,
          'not_found',
        ),
        params: joinRequestParamsSchema,
        body: decideJoinRequestBodySchema,
      },
    },
    async (request) => ({
      data: await service.decideRequest(
        deps,
        request.caller,
        request.params.id,
        request.body.status,
      ),
    }),
  );
  app.delete(
    '/queues/requests/:id',
    {
      schema: {
        ...doc(
          'Withdraw the own join request',
          { 200: dataEnvelope(okSchema) },
          'validation_failed',
          'unauthorized',
          'not_found',
        ),
        params: joinRequestParamsSchema,
      },
    },
    async (request) => {
      await service.withdrawRequest(deps, request.caller, request.params.id);
      return { data: { ok: true as const } };
    },
  );
};
