import { promotionEndpoints as endpoints } from '@upnext/contract/promotions';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.ts';
import * as service from './promotions.service.ts';

export const promotionRoutes: FastifyPluginAsync<service.PromotionDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.listPromotions, (request) =>
    service.listPromotions(deps, request.caller, request.query),
  );
  registerEndpoint(app, endpoints.createPromotion, (request) =>
    service.createPromotion(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.updatePromotion, (request) =>
    service.updatePromotion(deps, request.caller, request.params.promotionId, request.body),
  );
  registerEndpoint(app, endpoints.deletePromotion, async (request) => {
    await service.deletePromotion(deps, request.caller, request.params.promotionId);
    return { ok: true as const };
  });
};
