import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  type ChatChannel,
  type ChatMessage,
  ChatSession,
  type ChatSnapshot,
  type FileTransfer,
  type SendResult,
} from './chatSession.ts';
import { playChatTone } from './tone.ts';

/** How long the "new chat message" notice stays (spec §9: notifications time out after 5000 ms). */
export const CHAT_NOTICE_MS = 5000;
/** At most one tone in this interval, however many messages arrive. */
const TONE_GAP_MS = 1000;

export interface MeetingChat {
  /** True while the data channel is open: only then is anything sent (spec §5). */
  channelOpen: boolean;
  messages: readonly ChatMessage[];
  transfers: readonly FileTransfer[];
  /** Messages from the other side since the drawer was last open. */
  unread: number;
  /** Whether the chat drawer is open (the meeting screen's chat toggle). */
  opened: boolean;
  setOpened: (opened: boolean) => void;
  /** The message behind "You have new chat message", while it shows. */
  notice: ChatMessage | null;
  dismissNotice: () => void;
  send: (text: string) => SendResult;
  sendFile: (file: File) => SendResult;
  cancel: (transferId: string) => void;
}

const empty: ChatSnapshot = { open: false, messages: [], transfers: [] };
const noSession = () => () => undefined;
const emptySnapshot = () => empty;
/** Without a channel, as without an open one: nothing is sent (blank text is still "empty"). */
const withoutChannel = (text: string): SendResult =>
  text.trim() ? { ok: false, reason: 'not_open' } : { ok: false, reason: 'empty' };

/**
 * The chat of a call over its data channel (`createDataChannel('chat', ...)`; null until there
 * is one). A new channel (a rejoin) starts a new session that keeps the messages so far.
 * A message arriving while the drawer is closed counts as unread, shows the notice and plays
 * the tone.
 */
export function useMeetingChat(
  channel: ChatChannel | null,
  options: { tone?: () => void } = {},
): MeetingChat {
  const [session, setSession] = useState<ChatSession | null>(null);
  const [opened, setOpenedState] = useState(false);
  const [unread, setUnread] = useState(0);
  const [notice, setNotice] = useState<ChatMessage | null>(null);
  const history = useRef<readonly ChatMessage[]>([]);
  const openedRef = useRef(opened);
  const lastTone = useRef(0);
  const tone = useRef(options.tone ?? playChatTone);
  tone.current = options.tone ?? playChatTone;

  useEffect(() => {
    if (!channel) {
      setSession(null);
      return;
    }
    const next = new ChatSession(channel, { history: history.current });
    const stopListening = next.onIncoming((message) => {
      if (openedRef.current) return;
      setUnread((count) => count + 1);
      setNotice(message);
      const now = Date.now();
      if (now - lastTone.current >= TONE_GAP_MS) {
        lastTone.current = now;
        tone.current();
      }
    });
    setSession(next);
    return () => {
      history.current = next.getSnapshot().messages;
      stopListening();
      next.dispose();
    };
  }, [channel]);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), CHAT_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const snapshot = useSyncExternalStore(
    session?.subscribe ?? noSession,
    session?.getSnapshot ?? emptySnapshot,
  );

  const setOpened = useCallback((value: boolean) => {
    openedRef.current = value;
    setOpenedState(value);
    if (value) {
      setUnread(0);
      setNotice(null);
    }
  }, []);

  return {
    channelOpen: snapshot.open,
    messages: snapshot.messages.length > 0 || session ? snapshot.messages : history.current,
    transfers: snapshot.transfers,
    unread,
    opened,
    setOpened,
    notice,
    dismissNotice: useCallback(() => setNotice(null), []),
    send: useCallback(
      (text: string) => (session ? session.sendText(text) : withoutChannel(text)),
      [session],
    ),
    sendFile: useCallback(
      (file: File): SendResult => session?.sendFile(file) ?? { ok: false, reason: 'not_open' },
      [session],
    ),
    cancel: useCallback((id: string) => session?.cancel(id), [session]),
  };
}
