import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorEnvelope } from '@upnext/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { refusalOf } from '../db/refusals.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { apiErrorMessage } from '../lib/error-messages.ts';
import { AppError, type ErrorCode, statusOf } from '../lib/errors.ts';
import { requestLanguage } from './language.ts';

type FieldIssue = { field: string; message: string };

/** Fastify's own 4xx errors, mapped to our stable codes and plain wording. */
const frameworkErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Send the request body as JSON (Content-Type: application/json).',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'bad_request',
    message: 'The request body is empty but JSON was declared.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'bad_request',
    message: 'The request body is not valid JSON.',
  },
  // Refused by the router before any route runs (Fastify's `frameworkErrors`).
  FST_ERR_BAD_URL: { code: 'bad_request', message: 'The URL is not validly encoded.' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'uri_too_long', message: 'A part of the URL is too long.' },
};

/** The envelope, its reason in the language the request asks for (lib/error-messages.ts). */
export function sendError(
  reply: FastifyReply,
  status: number,
  error: ErrorEnvelope['error'],
): FastifyReply {
  const message = apiErrorMessage(error.code, error.message, requestLanguage(reply.request));
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ error: { ...error, message } });
}

function validationIssues(error: FastifyError): FieldIssue[] {
  return (error.validation ?? []).map((issue) => {
    const where = error.validationContext ?? 'body';
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const missing =
      issue.keyword === 'required' && typeof issue.params.missingProperty === 'string'
        ? issue.params.missingProperty
        : '';
    const field = [where, path, missing].filter(Boolean).join('.');
    return { field, message: issue.message ?? 'is invalid' };
  });
}

/** The /api error handler; also Fastify's `frameworkErrors` (app.ts), which the router calls. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.status >= 500) request.log.error({ err: error }, error.message);
    const retryAfter =
      error.retryAfterSeconds ??
      (error.code === 'database_unavailable' ? DATABASE_RETRY_AFTER_SECONDS : undefined);
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    return sendError(reply, error.status, {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.status >= 500 ? { requestId: request.id } : {}),
    });
  }

  if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
    const issues = validationIssues(error);
    const summary = issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
    return sendError(reply, 400, {
      code: 'validation_failed',
      message: `The request is invalid. ${summary}`.trim(),
      details: { issues },
    });
  }

  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return sendError(reply, 503, {
      code: 'database_unavailable',
      message: 'The service is briefly unavailable. Please try again in a few seconds.',
      requestId: request.id,
    });
  }

  // A statement the database refused for the caller's values: the contract's bounds missed
  // them, so this is logged to be fixed there, but it is still the caller's 4xx.
  const refusal = refusalOf(error);
  if (refusal) {
    request.log.warn({ err: error }, 'database refused the request values');
    return refusal === 'conflict'
      ? sendError(reply, 409, {
          code: 'conflict',
          message: 'The change conflicts with data stored meanwhile. Reload and try again.',
        })
      : sendError(reply, 400, {
          code: 'bad_request',
          message: 'A value in the request cannot be stored.',
        });
  }

  const known = error.code ? frameworkErrors[error.code] : undefined;
  if (known) return sendError(reply, statusOf(known.code), known);

  const status = error.statusCode ?? 500;
  if (status === 429) {
    return sendError(reply, 429, {
      code: 'too_many_requests',
      message: 'Too many requests. Please wait a moment and try again.',
    });
  }
  if (status >= 400 && status < 500) {
    return sendError(reply, status, { code: 'bad_request', message: error.message });
  }

  // Anything else is our fault: log it whole, show nothing of it.
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, 500, {
    code: 'internal_error',
    message: 'Something went wrong on our side. Please try again.',
    requestId: request.id,
  });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
}

/** What Node's HTTP parser refuses before Fastify sees a request (`clientError`). */
const clientErrors: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: 'The request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'The request took too long to arrive.',
  },
};
const malformedHttp = { code: 'bad_request', message: 'The request is not valid HTTP.' } as const;

/**
 * Fastify's `clientErrorHandler`: the same envelope on the raw socket (no request exists yet,
 * so no route, hooks or request id), then the connection closes as Node's own answer does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = clientErrors[error.code ?? ''] ?? malformedHttp;
  const body = JSON.stringify({ error: refusal });
  const status = statusOf(refusal.code);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
