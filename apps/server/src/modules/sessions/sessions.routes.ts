import { dataEnvelope } from '@upnext/contract/errors';
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
import { type ZodType, z } from 'zod';
import { hasSmsPath } from '../../auth/sms.ts';
import type { ApiDeps } from '../../http/api.ts';
import { routeDoc, signedIn } from '../../http/route-docs.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import * as service from './sessions.service.ts';

/**
 * Schema fields of a route: tag, summary, success and error bodies, and a description that
 * explains the rule and names every stable error code (through the shared `routeDoc`).
 */
function doc(summary: string, about: string, success: Record<number, ZodType>, codes: ErrorCode[]) {
  const base = routeDoc('sessions', summary, success, codes);
  return { ...base, description: `${about} ${base.description}` };
}
/** Reads answer anonymous callers too (public queues); a bad token is still 401. */
const read: ErrorCode[] = ['validation_failed', 'unauthorized', 'not_found'];
const write: ErrorCode[] = [...signedIn, 'not_found'];

/** Sessions, their services and slots (spec §7 paths; PRODUCT.md rules). */
export const sessionRoutes: FastifyPluginAsyncZod<ApiDeps> = async (
  app,
  { config, database, clock, publisher },
) => {
  const deps: service.SessionsDeps = {
    db: database.db,
    clock,
    publisher,
    publicUrl: config.publicUrl,
    smsEnabled: hasSmsPath(config),
  };

  app.post(
    '/queues/sessions/schedule',
    {
      schema: {
        ...doc(
          'Schedule one session or a weekly series with its services (or preview it)',
          'Owners and admins. Dates and times are in the company time zone. With `preview: true` ' +
            'nothing is saved (200) and the answer lists what would be created and its conflicts; ' +
            'a save answers 201. Overlaps on one sub-queue are refused (details.conflicts); ' +
            'archived queues are a conflict.',
          {
            200: dataEnvelope(scheduleResultSchema),
            201: dataEnvelope(scheduleResultSchema),
          },
          [...write, 'session_overlap', 'conflict'],
        ),
        body: scheduleSessionInputSchema,
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
        ...doc(
          'Edit this session, or it and the following ones of its series',
          'Owners and admins; scheduled sessions without tokens only (cancelled later ones of a ' +
            'series are left alone). Changed windows regenerate the slots.',
          { 200: dataEnvelope(editSessionResultSchema) },
          [...write, 'session_not_editable', 'session_has_tokens', 'session_overlap'],
        ),
        body: editSessionInputSchema,
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
        ...doc(
          'Delete this session, or it and the following ones of its series',
          'Owners and admins; scheduled or cancelled sessions without tokens only.',
          { 200: dataEnvelope(deleteSessionResultSchema) },
          [...write, 'session_not_editable', 'session_has_tokens'],
        ),
        body: deleteSessionInputSchema,
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
        ...doc(
          'Open, pause, close or cancel a session',
          'scheduled → open ⇄ paused → closed; scheduled, open or paused → cancelled; anything ' +
            'else is invalid_transition (details.from, details.to). Owners and admins, and staff ' +
            "assigned to the session's sub-queue.",
          { 200: dataEnvelope(sessionSchema) },
          [...write, 'invalid_transition'],
        ),
        body: sessionStatusInputSchema,
      },
    },
    async (request) => ({
      data: await service.changeSessionStatus(deps, request.caller, request.body),
    }),
  );

  app.get(
    '/queues/:queueId/sessions',
    {
      schema: {
        ...doc(
          "A queue's sessions from today (X-user-timezone) or in a date range",
          'Company members see every session; others only live sessions (not cancelled or ' +
            'closed, not ended) of active public or unlisted queues (private ones with an ' +
            'approved join request). Hidden queues are not_found.',
          { 200: dataEnvelope(sessionListSchema) },
          read,
        ),
        params: z.object({ queueId: z.uuid() }),
        querystring: queueSessionsQuerySchema,
      },
    },
    async (request) => ({
      data: await service.listQueueSessions(
        deps,
        request.caller,
        request.params.queueId,
        request.query,
      ),
    }),
  );

  app.get(
    '/company/queues/:queueId/sessions/:sessionId',
    {
      schema: {
        ...doc(
          'One session with live counts (waiting, served, now serving)',
          'Readable by company members and by anyone who can see the queue.',
          { 200: dataEnvelope(sessionSchema) },
          read,
        ),
        params: z.object({ queueId: z.uuid(), sessionId: z.uuid() }),
      },
    },
    async (request) => ({
      data: await service.getSession(
        deps,
        request.caller,
        request.params.queueId,
        request.params.sessionId,
      ),
    }),
  );

  app.get(
    '/queues/sessions',
    {
      schema: {
        ...doc(
          "The signed-in member's sessions on a day (default: today in X-user-timezone)",
          'Owners and admins: every session of their companies; staff: sessions of the ' +
            'sub-queues assigned to them; anyone else: none.',
          { 200: dataEnvelope(sessionListSchema) },
          ['validation_failed', 'unauthorized'],
        ),
        querystring: mySessionsQuerySchema,
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
        ...doc(
          'Find sessions by queue, company, sub-queue, date range and status',
          "Members see their companies' sessions; everyone else live sessions of active public " +
            'queues (unlisted ones too when asked by queueId). `from` defaults to today.',
          { 200: dataEnvelope(sessionListSchema) },
          ['validation_failed', 'unauthorized'],
        ),
        body: sessionQuerySchema,
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
        ...doc(
          'Services offered in a session',
          'Readable by company members and by anyone who can see the queue.',
          { 200: dataEnvelope(z.array(sessionServiceSchema)) },
          read,
        ),
        params: z.object({ sessionId: z.uuid() }),
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
        ...doc(
          'Offer a service type in a session; its slots are generated at once',
          'Owners and admins; not in closed or cancelled sessions; one service per type.',
          { 201: dataEnvelope(sessionServiceSchema) },
          [...write, 'service_exists', 'session_not_editable'],
        ),
        params: z.object({ sessionId: z.uuid() }),
        body: sessionServiceInputSchema,
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
        ...doc(
          'Slots 1..n of a session service, blocked ones included',
          'Whole slots of the slot length from the session start; a last partial slot is ' +
            'dropped. Slots of capacity 0 are listed but never bookable.',
          { 200: dataEnvelope(z.array(slotSchema)) },
          read,
        ),
        params: z.object({ serviceId: z.uuid() }),
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
        ...doc(
          'Block or reopen slots of a session service',
          "Owners and admins, and staff assigned to the session's sub-queue. Answers every " +
            'slot of the service; unknown slot numbers are not_found (details.missing).',
          { 200: dataEnvelope(z.array(slotSchema)) },
          write,
        ),
        body: slotsStatusInputSchema,
      },
    },
    async (request) => ({
      data: await service.setSlotsStatus(deps, request.caller, request.body),
    }),
  );
};
