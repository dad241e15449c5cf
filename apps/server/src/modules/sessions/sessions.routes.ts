import { dataEnvelope, errorEnvelopeSchema } from '@upnext/contract/errors';
import {
  deleteSessionInputSchema,
  deleteSessionResultSchema,
  editSessionInputSchema,
  editSessionResultSchema,
  mySessionsQuerySchema,
  queueSessionsQuerySchema,
  scheduleResultSchema,
  scheduleSessionInputSchema,
  sessionListSchema,
  sessionQuerySchema,
  sessionSchema,
  sessionServiceInputSchema,
  sessionServiceSchema,
  sessionStatusInputSchema,
  slotSchema,
  slotsStatusInputSchema,
} from '@upnext/contract/sessions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../../http/api.ts';
import * as service from './sessions.service.ts';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};
const readErrors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 404: errorEnvelopeSchema };
const tags = ['sessions'];
/** A bearer token is optional: reads answer anonymous callers too, writes answer 401. */
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, {}];

/** Sessions, their services and slots (spec §7 paths; PRODUCT.md rules). */
export const sessionRoutes: FastifyPluginAsyncZod<ApiDeps> = async (
  app,
  { database, clock, publisher },
) => {
  const deps: service.SessionsDeps = { db: database.db, clock, publisher };

  app.post(
    '/queues/sessions/schedule',
    {
      schema: {
        tags,
        security,
        summary: 'Schedule one session or a weekly series with its services (or preview it)',
        description:
          'Owners and admins. Dates and times are in the company time zone. With `preview: true` ' +
          'nothing is saved and the answer lists what would be created and its conflicts. ' +
          'Errors: 400 validation_failed (details.issues[].field), 401 unauthorized, 403 forbidden, ' +
          '404 not_found (queue), 409 session_overlap (details.conflicts).',
        body: scheduleSessionInputSchema,
        response: {
          200: dataEnvelope(scheduleResultSchema),
          201: dataEnvelope(scheduleResultSchema),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const data = await service.scheduleSessions(deps, request.caller, request.body);
      return reply.code(data.preview ? 200 : 201).send({ data });
    },
  );

  app.post(
    '/queues/sessions/edit',
    {
      schema: {
        tags,
        security,
        summary: 'Edit this session, or it and the following ones of its series',
        description:
          'Owners and admins; scheduled sessions without tokens only (cancelled later ones of a ' +
          'series are left alone). Errors: 400 validation_failed, 401, 403, 404 not_found, ' +
          '409 session_not_editable | session_has_tokens | session_overlap.',
        body: editSessionInputSchema,
        response: { 200: dataEnvelope(editSessionResultSchema), ...errors },
      },
    },
    async (request) => ({
      data: { sessions: await service.editSessions(deps, request.caller, request.body) },
    }),
  );

  app.post(
    '/queues/sessions/delete',
    {
      schema: {
        tags,
        security,
        summary: 'Delete this session, or it and the following ones of its series',
        description:
          'Owners and admins; scheduled or cancelled sessions without tokens only. Errors: ' +
          '400 validation_failed, 401, 403, 404 not_found, 409 session_not_editable | session_has_tokens.',
        body: deleteSessionInputSchema,
        response: { 200: dataEnvelope(deleteSessionResultSchema), ...errors },
      },
    },
    async (request) => ({
      data: { deletedIds: await service.deleteSessions(deps, request.caller, request.body) },
    }),
  );

  app.post(
    '/queues/sessions/status',
    {
      schema: {
        tags,
        security,
        summary: 'Open, pause, close or cancel a session',
        description:
          'scheduled → open ⇄ paused → closed; scheduled, open or paused → cancelled. Owners and ' +
          "admins, and staff assigned to the session's sub-queue. Errors: 400 validation_failed, " +
          '401, 403, 404 not_found, 409 invalid_transition (details.from, details.to).',
        body: sessionStatusInputSchema,
        response: { 200: dataEnvelope(sessionSchema), ...errors },
      },
    },
    async (request) => ({
      data: await service.changeSessionStatus(deps, request.caller, request.body),
    }),
  );

  app.get(
    '/queues/:qid/sessions',
    {
      schema: {
        tags,
        security,
        summary: "A queue's sessions from today (X-user-timezone) or a date range",
        description:
          'Company members see every session; others only live sessions of active public or ' +
          'unlisted queues. Errors: 400 validation_failed, 401, 404 not_found (also private queues).',
        params: z.object({ qid: z.uuid() }),
        querystring: queueSessionsQuerySchema,
        response: { 200: dataEnvelope(sessionListSchema), ...readErrors },
      },
    },
    async (request) => ({
      data: await service.listQueueSessions(
        deps,
        request.caller,
        request.params.qid,
        request.query,
      ),
    }),
  );

  app.get(
    '/company/queues/:qid/sessions/:sessionId',
    {
      schema: {
        tags,
        security,
        summary: 'One session with live counts (waiting, served, now serving)',
        description: 'Errors: 400 validation_failed, 401, 404 not_found.',
        params: z.object({ qid: z.uuid(), sessionId: z.uuid() }),
        response: { 200: dataEnvelope(sessionSchema), ...readErrors },
      },
    },
    async (request) => ({
      data: await service.getSession(
        deps,
        request.caller,
        request.params.qid,
        request.params.sessionId,
      ),
    }),
  );

  app.get(
    '/queues/sessions',
    {
      schema: {
        tags,
        security,
        summary: "The signed-in member's sessions on a day (default today in X-user-timezone)",
        description:
          'Owners and admins: every session of their companies; staff: sessions of the ' +
          'sub-queues assigned to them. Errors: 400 validation_failed, 401 unauthorized.',
        querystring: mySessionsQuerySchema,
        response: {
          200: dataEnvelope(sessionListSchema),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({
      data: await service.mySessions(deps, request.caller, request.query.date),
    }),
  );

  app.post(
    '/queues/sessions/query',
    {
      schema: {
        tags,
        security,
        summary: 'Find sessions by queue, company, sub-queue, date range and status',
        description:
          "Members see their companies' sessions; everyone else live sessions of active public " +
          'queues (unlisted ones too when asked by queueId). Errors: 400 validation_failed, 401.',
        body: sessionQuerySchema,
        response: {
          200: dataEnvelope(sessionListSchema),
          400: errorEnvelopeSchema,
          401: errorEnvelopeSchema,
        },
      },
    },
    async (request) => ({
      data: await service.querySessions(deps, request.caller, request.body),
    }),
  );

  app.get(
    '/queues/sessions/:sessionId/services',
    {
      schema: {
        tags,
        security,
        summary: 'Services offered in a session',
        description: 'Errors: 400 validation_failed, 401, 404 not_found.',
        params: z.object({ sessionId: z.uuid() }),
        response: { 200: dataEnvelope(z.array(sessionServiceSchema)), ...readErrors },
      },
    },
    async (request) => ({
      data: await service.listServices(deps, request.caller, request.params.sessionId),
    }),
  );

  app.post(
    '/queues/sessions/:sessionId/services',
    {
      schema: {
        tags,
        security,
        summary: 'Offer a service type in a session; its slots are generated at once',
        description:
          'Owners and admins. Errors: 400 validation_failed, 401, 403, 404 not_found, ' +
          '409 service_exists | session_not_editable (closed or cancelled session).',
        params: z.object({ sessionId: z.uuid() }),
        body: sessionServiceInputSchema,
        response: { 201: dataEnvelope(sessionServiceSchema), ...errors },
      },
    },
    async (request, reply) => {
      const data = await service.addService(
        deps,
        request.caller,
        request.params.sessionId,
        request.body,
      );
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/queues/sessions/services/:serviceId/slots',
    {
      schema: {
        tags,
        security,
        summary: 'Slots 1..n of a session service, blocked ones included',
        description:
          'Whole slots of the slot length from the session start; a last partial slot is ' +
          'dropped. Capacity 0 slots are listed but never bookable. Errors: 400, 401, 404 not_found.',
        params: z.object({ serviceId: z.uuid() }),
        response: { 200: dataEnvelope(z.array(slotSchema)), ...readErrors },
      },
    },
    async (request) => ({
      data: await service.listSlots(deps, request.caller, request.params.serviceId),
    }),
  );

  app.post(
    '/queues/sessions/services/slots-status',
    {
      schema: {
        tags,
        security,
        summary: 'Block or reopen slots of a session service',
        description:
          "Owners and admins, and staff assigned to the session's sub-queue. Answers every slot " +
          'of the service. Errors: 400 validation_failed, 401, 403, 404 not_found (details.missing).',
        body: slotsStatusInputSchema,
        response: { 200: dataEnvelope(z.array(slotSchema)), ...errors },
      },
    },
    async (request) => ({
      data: await service.setSlotsStatus(deps, request.caller, request.body),
    }),
  );
};
