import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type RealtimeConnection, realtime, useRealtimeConnected } from './stomp-client.ts';

/**
 * How realtime events reach the screens: each feature registers, per topic pattern, how an
 * event changes its TanStack Query cache (`apply`) and what to refetch when events may have
 * been missed (`resync`: the topic was just (re)subscribed, or the server skipped some).
 * Screens listen with `useLiveTopic(destination)`; every rule whose pattern matches the
 * destination runs.
 */
type TopicParams = Record<string, string>;

export interface RealtimeCacheRule {
  apply(event: unknown, queryClient: QueryClient, params: TopicParams): void;
  resync(queryClient: QueryClient, params: TopicParams): void;
}

interface Entry {
  match: (destination: string) => TopicParams | null;
  rule: RealtimeCacheRule;
}

const entries = new Set<Entry>();

/** `/topic/session/:sessionId` matches `/topic/session/abc` with `{ sessionId: 'abc' }`. */
function compile(pattern: string): (destination: string) => TopicParams | null {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  const regex = new RegExp(`^${source}$`);
  return (destination) => {
    const found = regex.exec(destination);
    if (!found) return null;
    return Object.fromEntries(names.map((name, index) => [name, found[index + 1] ?? '']));
  };
}

/** Registers a feature's rule for a topic pattern; returns its removal. */
export function registerRealtime(pattern: string, rule: RealtimeCacheRule): () => void {
  const entry: Entry = { match: compile(pattern), rule };
  entries.add(entry);
  return () => {
    entries.delete(entry);
  };
}

function matching(destination: string): Array<[RealtimeCacheRule, TopicParams]> {
  const found: Array<[RealtimeCacheRule, TopicParams]> = [];
  for (const entry of entries) {
    const params = entry.match(destination);
    if (params) found.push([entry.rule, params]);
  }
  return found;
}

function applyRealtimeEvent(destination: string, event: unknown, queryClient: QueryClient): void {
  for (const [rule, params] of matching(destination)) rule.apply(event, queryClient, params);
}

function resyncRealtimeTopic(destination: string, queryClient: QueryClient): void {
  for (const [rule, params] of matching(destination)) rule.resync(queryClient, params);
}

/**
 * Applies an event to one cached query. A fetch already under way would answer the state
 * from before the event, so it is replaced by a fresh one.
 */
export function updateLiveQuery<T>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  update: (data: T | undefined) => T | undefined,
): void {
  queryClient.setQueryData<T>(queryKey, update);
  if (queryClient.isFetching({ queryKey, exact: true }) > 0) {
    void queryClient.invalidateQueries({ queryKey, exact: true });
  }
}

/** Keeps the cache of `destination` (null: nothing) live while the component is mounted. */
export function useLiveTopic(
  destination: string | null,
  connection: RealtimeConnection = realtime,
): void {
  useLiveTopics(destination ? [destination] : [], connection);
}

/** `useLiveTopic` for a changing set of topics (e.g. the sessions of a visitor's tokens). */
export function useLiveTopics(
  destinations: readonly string[],
  connection: RealtimeConnection = realtime,
): void {
  const queryClient = useQueryClient();
  const key = [...new Set(destinations)].sort().join('\n');
  useEffect(() => {
    if (!key) return;
    const offs = key.split('\n').map((destination) =>
      connection.subscribe(
        destination,
        (event) => applyRealtimeEvent(destination, event, queryClient),
        () => resyncRealtimeTopic(destination, queryClient),
      ),
    );
    return () => {
      for (const off of offs) off();
    };
  }, [key, connection, queryClient]);
}

/** Polling while realtime is down, as a fallback (spec §8 reconnects every 5 s meanwhile). */
export const FALLBACK_POLL_MS = 5_000;
/**
 * A browser can stretch the fallback (milliseconds in localStorage): the end-to-end journeys
 * set it far beyond their waits, so they pass only if realtime delivers.
 */
export const FALLBACK_POLL_STORAGE_KEY = 'upnext.realtime.fallbackPollMs';

function fallbackPollMs(): number {
  try {
    const stored = Number(window.localStorage.getItem(FALLBACK_POLL_STORAGE_KEY));
    return Number.isFinite(stored) && stored > 0 ? stored : FALLBACK_POLL_MS;
  } catch {
    return FALLBACK_POLL_MS;
  }
}

/** A live query's `refetchInterval`: none while `connection` is up, the fallback otherwise. */
export function useLiveRefetchInterval(connection: RealtimeConnection = realtime): number | false {
  return useRealtimeConnected(connection) ? false : fallbackPollMs();
}
