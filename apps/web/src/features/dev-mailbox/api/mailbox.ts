import { useQuery } from '@tanstack/react-query';
import { authUrl } from '../../../lib/auth-client.ts';

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
}

/** `unavailable`: the server has no developer mailbox (SMTP configured, or production: 404). */
export type MailboxResult = { kind: 'ok'; messages: MailboxMessage[] } | { kind: 'unavailable' };

async function fetchMailbox(to: string): Promise<MailboxResult> {
  const query = to ? `?to=${encodeURIComponent(to)}` : '';
  const response = await fetch(`${authUrl()}/dev/mailbox${query}`, {
    headers: { Accept: 'application/json' },
    cache: 'no-store',
  });
  if (response.status === 404) return { kind: 'unavailable' };
  if (!response.ok) throw new Error(`The mailbox answered ${response.status}`);
  const body = (await response.json()) as { messages: MailboxMessage[] };
  return { kind: 'ok', messages: body.messages };
}

/** GET /auth/v1/dev/mailbox (outside production), polled while the page is open. */
export function useDevMailbox(to: string) {
  return useQuery({
    queryKey: ['dev-mailbox', to],
    queryFn: () => fetchMailbox(to.trim()),
    refetchInterval: 5000,
    staleTime: 0,
  });
}

/** The first link and the first 6–10 digit code in a message's text. */
export function extractLinkAndCode(text: string): { link: string | null; code: string | null } {
  const link = /https?:\/\/\S+/.exec(text)?.[0] ?? null;
  const code = /(?:^|\s)(\d{6,10})(?:\s|$)/m.exec(text)?.[1] ?? null;
  return { link, code };
}
