import { topics } from '@upnext/contract/realtime-topics';
import type { SessionBoard } from '@upnext/contract/tokens';
import type { EventPublisher } from '../../lib/events.ts';
import type { SessionContext } from './tokens.repository.ts';

/** A session's board and the facts its audience is decided by. */
export type CachedBoard = { session: SessionContext; board: SessionBoard };

export type BoardCache = {
  /** The session's board: the one being read or read within the window, else `load`'s. */
  read(
    sessionId: string,
    load: () => Promise<CachedBoard | undefined>,
  ): Promise<CachedBoard | undefined>;
  /** A publisher that forgets a session's board whenever its topic announces a change. */
  forgetting(publisher: EventPublisher): EventPublisher;
};

const sessionTopic = topics.session('');

/**
 * The public board of each session, shared by every caller of this instance for `ttlMs`
 * (single-flight: callers arriving while it is read wait for that one read). The board tells
 * everyone who may see the session the same thing, so only who may see it is asked per
 * request (`session.read_board`, against the facts kept with it); entries are per session, so
 * one session's board is never another's. A change made on this instance is announced on the
 * session's topic, which drops the entry at once; one made on another instance shows within
 * `ttlMs`. A failed read is not kept.
 */
export function createBoardCache(ttlMs = 1000): BoardCache {
  const entries = new Map<string, { until: number; board: Promise<CachedBoard | undefined> }>();
  return {
    read(sessionId, load) {
      const now = Date.now();
      const hit = entries.get(sessionId);
      if (hit && hit.until > now) return hit.board;
      if (entries.size >= 10_000) {
        for (const [id, entry] of entries) if (entry.until <= now) entries.delete(id);
      }
      const entry = { until: now + ttlMs, board: load() };
      entries.set(sessionId, entry);
      entry.board.catch(() => {
        if (entries.get(sessionId) === entry) entries.delete(sessionId);
      });
      return entry.board;
    },
    forgetting(publisher) {
      return {
        publish(destination, body) {
          if (destination.startsWith(sessionTopic)) {
            entries.delete(destination.slice(sessionTopic.length));
          }
          publisher.publish(destination, body);
        },
      };
    },
  };
}
