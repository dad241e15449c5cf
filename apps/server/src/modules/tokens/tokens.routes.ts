import { tokenEndpoints as endpoints, IDEMPOTENCY_KEY_HEADER } from '@upnext/contract/tokens';
import type { FastifyPluginAsync } from 'fastify';
import { hasSmsPath } from '../../auth/sms.ts';
import type { ApiDeps } from '../../http/api.ts';
import { registerEndpoint } from '../../http/endpoint.ts';
import { requestLanguage } from '../../http/language.ts';
import type { BoardCache } from './tokens.board.ts';
import { queueBoard } from './tokens.branch-board.ts';
import { rescheduleBooking } from './tokens.reschedule.ts';
import * as service from './tokens.service.ts';

/** What the token use cases need, from the API's dependencies (also for the status links). */
export const tokensDepsOf = (options: ApiDeps): service.TokensDeps => ({
  db: options.database.db,
  clock: options.clock,
  publisher: options.publisher,
  publicUrl: options.config.publicUrl,
  smsEnabled: hasSmsPath(options.config),
  payments: options.payments,
});

/** Walk-in tokens, bookings and the live queue (spec §7 paths; PRODUCT.md rules). */
export const tokensRoutes: FastifyPluginAsync<ApiDeps & { boards: BoardCache }> = async (
  app,
  options,
) => {
  const deps = tokensDepsOf(options);

  registerEndpoint(app, endpoints.takeToken, (request) =>
    service.takeToken(
      deps,
      request.caller,
      request.body,
      request.headers[IDEMPOTENCY_KEY_HEADER],
      requestLanguage(request),
    ),
  );
  registerEndpoint(app, endpoints.bookSlot, (request) =>
    service.bookSlot(
      deps,
      request.caller,
      request.body,
      request.headers[IDEMPOTENCY_KEY_HEADER],
      requestLanguage(request),
    ),
  );
  registerEndpoint(app, endpoints.queryTokens, (request) =>
    service.queryTokens(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.queryBookings, (request) =>
    service.queryTokens(deps, request.caller, { ...request.body, kind: 'booking' }),
  );
  registerEndpoint(app, endpoints.slotTokens, (request) =>
    service.slotTokens(deps, request.caller, request.params.sessionId, request.params.slotNo),
  );
  registerEndpoint(app, endpoints.bookingDetails, async (request, reply) => {
    const details = await service.bookingDetails(deps, request.caller, request.query.tokenId);
    if (request.query.format === 'ics') {
      // The calendar file itself, not the envelope: the registrar answers what was sent.
      reply
        .type('text/calendar; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="booking-${details.token.displayNumber}.ics"`,
        )
        .send(details.calendar);
    }
    return details;
  });
  registerEndpoint(app, endpoints.cancelToken, (request) =>
    service.cancelToken(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.cancelBooking, (request) =>
    service.cancelToken(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.rescheduleBooking, (request) =>
    rescheduleBooking(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.sessionBoard, (request) =>
    service.sessionBoard(deps, options.boards, request.caller, request.params.sessionId),
  );
  registerEndpoint(app, endpoints.queueBoard, (request) =>
    queueBoard(deps, options.boards, request.caller, request.params.queueId),
  );
  registerEndpoint(app, endpoints.nextToken, (request) =>
    service.nextToken(deps, request.caller, request.body.sessionId),
  );
  registerEndpoint(app, endpoints.actOnToken, (request) =>
    service.actOnToken(deps, request.caller, request.params.tokenId, request.params.action),
  );
  registerEndpoint(app, endpoints.recordServiceTime, (request) =>
    service.recordServiceTime(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.serviceTimeQuery, (request) =>
    service.serviceTimeQuery(deps, request.caller, request.body),
  );
};
