import { okSchema } from '@upnext/contract/common';
import { dataEnvelope } from '@upnext/contract/errors';
import {
  clientPromotionParamsSchema,
  clientPromotionSchema,
  createClientPromotionBodySchema,
  listClientPromotionsQuerySchema,
  updateClientPromotionBodySchema,
} from '@upnext/contract/promotions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeDoc, signedIn } from '../../http/route-docs.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import * as service from './promotions.service.ts';

const doc = (summary: string, success: Record<number, z.ZodType>, ...codes: ErrorCode[]) =>
  routeDoc('promotions', summary, success, codes);

export const promotionRoutes: FastifyPluginAsyncZod<service.PromotionDeps> = async (app, deps) => {
  app.get(
    '/queues/client-promotions',
    {
      schema: {
        ...doc(
          "A company's promotions: current ones for anyone; scope=all for owners and admins",
          { 200: dataEnvelope(z.array(clientPromotionSchema)) },
          ...signedIn,
        ),
        querystring: listClientPromotionsQuerySchema,
      },
    },
    async (request) => ({
      data: await service.listPromotions(deps, request.caller, request.query),
    }),
  );
  app.post(
    '/queues/client-promotions',
    {
      schema: {
        ...doc(
          'Create a promotion (owner, admin)',
          { 201: dataEnvelope(clientPromotionSchema) },
          ...signedIn,
        ),
        body: createClientPromotionBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { data: await service.createPromotion(deps, request.caller, request.body) };
    },
  );
  app.patch(
    '/queues/client-promotions/:id',
    {
      schema: {
        ...doc(
          'Change a promotion (owner, admin)',
          { 200: dataEnvelope(clientPromotionSchema) },
          ...signedIn,
          'not_found',
        ),
        params: clientPromotionParamsSchema,
        body: updateClientPromotionBodySchema,
      },
    },
    async (request) => ({
      data: await service.updatePromotion(deps, request.caller, request.params.id, request.body),
    }),
  );
  app.delete(
    '/queues/client-promotions/:id',
    {
      schema: {
        ...doc(
          'Delete a promotion (owner, admin)',
          { 200: dataEnvelope(okSchema) },
          ...signedIn,
          'not_found',
        ),
        params: clientPromotionParamsSchema,
      },
    },
    async (request) => {
      await service.deletePromotion(deps, request.caller, request.params.id);
      return { data: { ok: true as const } };
    },
  );
};
