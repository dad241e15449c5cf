import { dataEnvelope, errorEnvelopeSchema } from '@upnext/contract/errors';
import {
  bookingDetailsSchema,
  bookSlotInputSchema,
  cancelTokenInputSchema,
  IDEMPOTENCY_KEY_HEADER,
  nextTokenInputSchema,
  nextTokenResultSchema,
  serviceTimeInputSchema,
  serviceTimeQueryInputSchema,
  serviceTimeStatsSchema,
  sessionBoardSchema,
  takeTokenInputSchema,
  tokenActionSchema,
  tokenSchema,
  tokensQueryInputSchema,
} from '@upnext/contract/tokens';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hasSmsPath } from '../../auth/sms.ts';
import type { ApiDeps } from '../../http/api.ts';
import * as service from './tokens.service.ts';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};
const tags = ['tokens'];
const tokenList = dataEnvelope(z.array(tokenSchema));
const oneToken = dataEnvelope(tokenSchema);
/** One key per attempt to take a place: a repeat of the request answers the same token. */
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z.string().trim().min(1).max(200).optional(),
});

/** Walk-in tokens, bookings and the live queue (spec §7 paths; PRODUCT.md rules). */
export const tokensRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, options) => {
  const deps: service.TokensDeps = {
    db: options.database.db,
    clock: options.clock,
    publisher: options.publisher,
    publicUrl: options.config.publicUrl,
    smsEnabled: hasSmsPath(options.config),
  };

  app.post(
    '/queues/sessions/tokens',
    {
      schema: {
        tags,
        summary: 'Take a walk-in token (staff may issue one for a visitor without an account)',
        description:
          'An Idempotency-Key header (one per attempt) makes a repeat answer the same token. Errors: session_not_found, session_closed, session_full, token_limit_reached (details.tokenIds: the live ones held), walk_in_not_allowed, invalid_phone, idempotency_key_reused.',
        headers: idempotencyHeaders,
        body: takeTokenInputSchema,
        response: { 201: oneToken, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return {
        data: await service.takeToken(
          deps,
          request.caller,
          request.body,
          request.headers[IDEMPOTENCY_KEY_HEADER],
        ),
      };
    },
  );

  app.post(
    '/queues/sessions/slots/tokens',
    {
      schema: {
        tags,
        summary: 'Book a slot of a session service',
        description:
          'An Idempotency-Key header (one per attempt) makes a repeat answer the same booking. Errors: slot_not_found, slot_blocked, slot_in_past, slot_full, session_full, token_limit_reached, booking_not_allowed, invalid_phone, idempotency_key_reused.',
        headers: idempotencyHeaders,
        body: bookSlotInputSchema,
        response: { 201: oneToken, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return {
        data: await service.bookSlot(
          deps,
          request.caller,
          request.body,
          request.headers[IDEMPOTENCY_KEY_HEADER],
        ),
      };
    },
  );

  app.post(
    '/queues/sessions/tokens-query',
    {
      schema: {
        tags,
        summary: "A session's tokens (staff) or the caller's own, with positions and waits",
        body: tokensQueryInputSchema,
        response: { 200: tokenList, ...errors },
      },
    },
    async (request) => ({ data: await service.queryTokens(deps, request.caller, request.body) }),
  );

  app.post(
    '/queues/sessions/slots/tokens-query',
    {
      schema: {
        tags,
        summary: "Bookings: a session's (staff) or the caller's own",
        body: tokensQueryInputSchema,
        response: { 200: tokenList, ...errors },
      },
    },
    async (request) => ({
      data: await service.queryTokens(deps, request.caller, { ...request.body, kind: 'booking' }),
    }),
  );

  app.get(
    '/queues/sessions/:sessionId/slots/:slotNo/tokens',
    {
      schema: {
        tags,
        summary: 'The bookings of one slot (staff)',
        params: z.object({ sessionId: z.uuid(), slotNo: z.coerce.number().int().min(1) }),
        response: { 200: tokenList, ...errors },
      },
    },
    async (request) => ({
      data: await service.slotTokens(
        deps,
        request.caller,
        request.params.sessionId,
        request.params.slotNo,
      ),
    }),
  );

  app.get(
    '/queues/sessions/slots/booking-details',
    {
      schema: {
        tags,
        summary: 'A booking with its calendar file; format=ics downloads the .ics itself',
        querystring: z.object({
          tokenId: z.uuid(),
          format: z.enum(['json', 'ics']).default('json'),
        }),
        response: { 200: dataEnvelope(bookingDetailsSchema).or(z.string()), ...errors },
      },
    },
    async (request, reply) => {
      const details = await service.bookingDetails(deps, request.caller, request.query.tokenId);
      if (request.query.format === 'ics') {
        return reply
          .type('text/calendar; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="booking-${details.token.displayNumber}.ics"`,
          )
          .send(details.calendar);
      }
      return { data: details };
    },
  );

  for (const path of ['/queues/sessions/tokens-cancel', '/queues/sessions/slots/tokens-cancel']) {
    app.post(
      path,
      {
        schema: {
          tags,
          summary: 'Cancel a token or booking (its holder, or staff); a booked slot frees up',
          body: cancelTokenInputSchema,
          response: { 200: oneToken, ...errors },
        },
      },
      async (request) => ({ data: await service.cancelToken(deps, request.caller, request.body) }),
    );
  }

  app.get(
    '/queues/sessions/:sessionId/board',
    {
      schema: {
        tags,
        summary: 'The public state of a session for display boards (no personal data)',
        params: z.object({ sessionId: z.uuid() }),
        response: { 200: dataEnvelope(sessionBoardSchema), ...errors },
      },
    },
    async (request) => ({
      data: await service.sessionBoard(deps, request.caller, request.params.sessionId),
    }),
  );

  app.post(
    '/queues/sessions/next-token',
    {
      schema: {
        tags,
        summary: 'Complete the token being served and call the next one (staff)',
        description:
          'Order: priority, then bookings whose slot starts within BOOKING_LIVE_WINDOW_MINUTES (or has started), then number; later bookings wait. Errors: session_not_open.',
        body: nextTokenInputSchema,
        response: { 200: dataEnvelope(nextTokenResultSchema), ...errors },
      },
    },
    async (request) => ({
      data: await service.nextToken(deps, request.caller, request.body.sessionId),
    }),
  );

  app.post(
    '/queues/sessions/tokens/:tokenId/:action',
    {
      schema: {
        tags,
        summary:
          'Recall, no-show, requeue, start serving, complete or take over a called token (staff)',
        description:
          'start and complete need the token called by the caller (else token_called_by_other); take-over makes it theirs. Errors: invalid_token_transition names the current status.',
        params: z.object({ tokenId: z.uuid(), action: tokenActionSchema }),
        response: { 200: oneToken, ...errors },
      },
    },
    async (request) => ({
      data: await service.actOnToken(
        deps,
        request.caller,
        request.params.tokenId,
        request.params.action,
      ),
    }),
  );

  app.post(
    '/queues/sessions/service-time',
    {
      schema: {
        tags,
        summary: 'Record how long a served token took (staff)',
        body: serviceTimeInputSchema,
        response: { 200: oneToken, ...errors },
      },
    },
    async (request) => ({
      data: await service.recordServiceTime(deps, request.caller, request.body),
    }),
  );

  app.post(
    '/queues/sessions/service-time-query',
    {
      schema: {
        tags,
        summary: 'Average, median and 90th percentile of service and wait times (staff)',
        body: serviceTimeQueryInputSchema,
        response: { 200: dataEnvelope(serviceTimeStatsSchema), ...errors },
      },
    },
    async (request) => ({
      data: await service.serviceTimeQuery(deps, request.caller, request.body),
    }),
  );
};
