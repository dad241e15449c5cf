import type { QueueChildEndpoints } from '@upnext/contract/queues';
import { queueEndpoints as endpoints, queueChildren } from '@upnext/contract/queues';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Caller } from '../../http/caller.ts';
import { registerEndpoint } from '../../http/endpoint.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import * as children from './queue-children.service.ts';
import * as service from './queues.service.ts';

export const queueRoutes: FastifyPluginAsync<service.QueueDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.listQueues, (request) =>
    service.listQueues(deps, request.caller, request.query),
  );
  registerEndpoint(app, endpoints.createQueue, (request) =>
    service.createQueue(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.getQueue, (request) =>
    service.getQueue(deps, request.caller, request.params.queueId),
  );
  registerEndpoint(app, endpoints.updateQueue, (request) =>
    service.updateQueue(deps, request.caller, request.params.queueId, request.body),
  );
  registerEndpoint(app, endpoints.archiveQueue, (request) =>
    service.archiveQueue(deps, request.caller, request.params.queueId),
  );
  registerEndpoint(app, endpoints.getQueueByCode, (request) =>
    service.getQueueByCode(deps, request.caller, request.params.code),
  );
  registerQueueChild(app, deps, queueChildren.subQueues, children.subQueues);
  registerQueueChild(app, deps, queueChildren.serviceTypes, children.serviceTypes);
  registerQueueChild(app, deps, queueChildren.serviceAreas, children.serviceAreas);
};

/** The service of one kind of a queue's parts, as `registerQueueChild` mounts it. */
interface QueueChildService<T extends { item: unknown; create: unknown; update: unknown }> {
  list(deps: service.QueueDeps, caller: Caller, queueId: string): Promise<T['item'][]>;
  get(deps: service.QueueDeps, caller: Caller, queueId: string, id: string): Promise<T['item']>;
  create(
    deps: service.QueueDeps,
    caller: Caller,
    queueId: string,
    body: T['create'],
  ): Promise<T['item']>;
  update(
    deps: service.QueueDeps,
    caller: Caller,
    queueId: string,
    id: string,
    body: T['update'],
  ): Promise<T['item']>;
  remove(deps: service.QueueDeps, caller: Caller, queueId: string, id: string): Promise<void>;
}

/** The five endpoints every part of a queue has: list, create, get, change, delete. */
function registerQueueChild<T extends { item: unknown; create: unknown; update: unknown }>(
  app: FastifyInstance,
  deps: service.QueueDeps,
  endpoints: QueueChildEndpoints & { remove: { errors: readonly ErrorCode[] } },
  parts: QueueChildService<T>,
) {
  // The validator required both ids, the part's under its own name (`subQueueId`, ...).
  const queueId = (params: Record<string, string>) => params.queueId as string;
  const itemId = (params: Record<string, string>) => params[endpoints.idName] as string;
  registerEndpoint(app, endpoints.list, (request) =>
    parts.list(deps, request.caller, queueId(request.params)),
  );
  // The validator ran the part's body schema; TypeScript cannot see through the generic.
  registerEndpoint(app, endpoints.create, (request) =>
    parts.create(deps, request.caller, queueId(request.params), request.body as T['create']),
  );
  registerEndpoint(app, endpoints.get, (request) =>
    parts.get(deps, request.caller, queueId(request.params), itemId(request.params)),
  );
  registerEndpoint(app, endpoints.update, (request) =>
    parts.update(
      deps,
      request.caller,
      queueId(request.params),
      itemId(request.params),
      request.body as T['update'],
    ),
  );
  registerEndpoint(app, endpoints.remove, async (request) => {
    await parts.remove(deps, request.caller, queueId(request.params), itemId(request.params));
    return { ok: true as const };
  });
}
