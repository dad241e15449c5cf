import type { Endpoint } from '@upnext/contract/endpoint';
import { dataEnvelope } from '@upnext/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorCode } from '../lib/errors.ts';
import { errorDocs } from './route-docs.ts';

type Parsed<E, K extends string> =
  E extends Record<K, infer S extends z.ZodType> ? z.output<S> : undefined;

/** A request whose params, query and body are the endpoint's, validated. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest & {
  params: Parsed<E, 'params'>;
  headers: FastifyRequest['headers'] & Parsed<E, 'headers'>;
  query: Parsed<E, 'query'>;
  body: Parsed<E, 'body'>;
};

/** What a handler returns: the `data` of one of the endpoint's success responses. */
export type EndpointResult<E extends Endpoint> = {
  [S in keyof E['responses']]: z.input<E['responses'][S]>;
}[keyof E['responses']];

/** An endpoint whose error codes are all in the server's code table. */
export type ServerEndpoint = Endpoint & { errors: readonly ErrorCode[] };

// Any instance with any type provider: the handler's types come from the endpoint instead.
// biome-ignore lint/suspicious/noExplicitAny: Fastify's generics vary per plugin instance.
type AnyFastify = FastifyInstance<any, any, any, any, any>;

/**
 * Registers one endpoint of the contract's table: its route, its validation, its OpenAPI
 * entry (summary, error codes by status) and its `{ data }` envelope. The answer's status is
 * the endpoint's first success status unless the handler sets another with `reply.code`.
 */
export function registerEndpoint<E extends ServerEndpoint>(
  app: AnyFastify,
  endpoint: E,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<EndpointResult<E>>,
): void {
  const errors = errorDocs(...endpoint.errors);
  const success: Record<number, z.ZodType> = {};
  for (const [status, schema] of Object.entries(endpoint.responses)) {
    success[Number(status)] = dataEnvelope(schema);
  }
  const status = Math.min(...Object.keys(success).map(Number));
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      description: [endpoint.description, endpoint.errors.length ? errors.description : '']
        .filter(Boolean)
        .join(' '),
      ...(endpoint.public ? {} : { security: [{ bearerAuth: [] }, {}] }),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.headers ? { headers: endpoint.headers } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { ...success, ...errors.response },
    },
    handler: async (request, reply) => {
      reply.code(status);
      const data = await handler(request as EndpointRequest<E>, reply);
      // A handler that sent another representation itself (a file) has answered already.
      if (reply.sent) return reply;
      return { data };
    },
  });
}
