import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type QueueChildEndpoints,
  type QueueChildTypes,
  queueChildren,
  serviceAreaParts,
  serviceTypeParts,
  subQueueParts,
} from '@upnext/contract/queues';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/**
 * The parts of a queue (sub-queues, service types, service areas) share one API shape:
 * `GET|POST /queues/{queueId}/<part>` and `GET|PATCH|DELETE /queues/{queueId}/<part>/{id}`.
 * Each write invalidates that part's list of that queue.
 */
type Parts = { schema: z.ZodType; createBody: z.ZodType; updateBody: z.ZodType };

function queueChildApi<P extends Parts, T extends QueueChildTypes<P> = QueueChildTypes<P>>(
  /** Its contract schemas: the forms validate with `createBody`. */
  parts: P,
  /** Its query key, and the namespace of its texts in `workspace.json`. */
  kind: 'subQueues' | 'serviceTypes' | 'serviceAreas',
  /** Its calls in the endpoint table (their data types come from `parts`). */
  calls: QueueChildEndpoints,
) {
  const { idName, list, create, update, remove } = calls;
  const key = (queueId: string) => workspaceKeys[kind](queueId);
  const options = (queueId: string) =>
    queryOptions({
      queryKey: key(queueId),
      queryFn: ({ signal }) =>
        apiRequest<T['item'][]>(list.method, list.path, { params: { queueId }, signal }),
    });
  const useInvalidate = (queueId: string) => {
    const queryClient = useQueryClient();
    return () => queryClient.invalidateQueries({ queryKey: key(queueId) });
  };
  return {
    parts,
    kind,
    useList: (queueId: string, enabled = true) => useQuery({ ...options(queueId), enabled }),
    useCreate: (queueId: string) =>
      useMutation({
        mutationFn: (body: T['create']) =>
          apiRequest<T['item']>(create.method, create.path, { params: { queueId }, body }),
        onSuccess: useInvalidate(queueId),
      }),
    useUpdate: (queueId: string) =>
      useMutation({
        mutationFn: ({ id, body }: { id: string; body: T['update'] }) =>
          apiRequest<T['item']>(update.method, update.path, {
            params: { queueId, [idName]: id },
            body,
          }),
        onSuccess: useInvalidate(queueId),
      }),
    // Settled, not success: a refused delete (a type still in use) may mean the list changed.
    useDelete: (queueId: string) =>
      useMutation({
        mutationFn: (id: string) =>
          apiRequest<unknown>(remove.method, remove.path, { params: { queueId, [idName]: id } }),
        onSettled: useInvalidate(queueId),
      }),
  };
}

export type QueueChildApi<T extends { item: unknown; create: unknown; update: unknown }> = Omit<
  ReturnType<typeof queueChildApi<Parts, T>>,
  'parts'
> & { parts: Parts };

export const subQueuesApi = queueChildApi(subQueueParts, 'subQueues', queueChildren.subQueues);
export const serviceTypesApi = queueChildApi(
  serviceTypeParts,
  'serviceTypes',
  queueChildren.serviceTypes,
);
export const serviceAreasApi = queueChildApi(
  serviceAreaParts,
  'serviceAreas',
  queueChildren.serviceAreas,
);
