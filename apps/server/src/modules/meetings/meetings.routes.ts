import { dataEnvelope } from '@upnext/contract/errors';
import {
  listMeetingsQuerySchema,
  meetingParamsSchema,
  meetingPaths,
  meetingSchema,
  startMeetingInputSchema,
} from '@upnext/contract/meetings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeDoc, signedIn } from '../../http/route-docs.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import * as service from './meetings.service.ts';

const doc = (summary: string, success: Record<number, z.ZodType>, ...codes: ErrorCode[]) =>
  routeDoc('meetings', summary, success, codes);
const party: ErrorCode[] = ['validation_failed', 'unauthorized', 'meeting_not_found'];
const oneMeeting = dataEnvelope(meetingSchema);

/** Video meetings (PRODUCT.md "Meetings"); the signalling itself goes over STOMP (/app/call). */
export const meetingRoutes: FastifyPluginAsyncZod<service.MeetingsDeps> = async (app, deps) => {
  app.post(
    meetingPaths.meetings,
    {
      schema: {
        ...doc(
          'Ring the visitor holding the token being called or served (staff who may operate the session)',
          { 201: oneMeeting },
          ...signedIn,
          'not_found',
          'session_not_found',
          'token_not_found',
          'video_not_offered',
          'token_not_in_service',
          'visitor_not_reachable',
          'meeting_in_progress',
        ),
        body: startMeetingInputSchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { data: await service.startMeeting(deps, request.caller, request.body) };
    },
  );

  app.get(
    meetingPaths.meetings,
    {
      schema: {
        ...doc(
          "The caller's own meetings, newest first (state=ringing: a call waiting to be answered)",
          { 200: dataEnvelope(z.array(meetingSchema)) },
          'validation_failed',
          'unauthorized',
        ),
        querystring: listMeetingsQuerySchema,
      },
    },
    async (request) => ({
      data: await service.listMeetings(deps, request.caller, request.query.state),
    }),
  );

  app.get(
    meetingPaths.meeting,
    {
      schema: {
        ...doc('A meeting, for its two parties only', { 200: oneMeeting }, ...party),
        params: meetingParamsSchema,
      },
    },
    async (request) => ({
      data: await service.getMeeting(deps, request.caller, request.params.meetingId),
    }),
  );

  app.post(
    meetingPaths.end,
    {
      schema: {
        ...doc(
          'Hang up (either party): a ringing or active meeting ends',
          { 200: oneMeeting },
          ...party,
          'meeting_not_live',
        ),
        params: meetingParamsSchema,
      },
    },
    async (request) => ({
      data: await service.endMeeting(deps, request.caller, request.params.meetingId),
    }),
  );
};
