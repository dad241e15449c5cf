import { AppError } from '../../lib/errors.ts';

/**
 * Who is calling: resolved once per request by the transport (http/caller.ts for /api, the
 * STOMP upgrade for /wss) and handed to the domain as plain data.
 */
export type Caller =
  | { kind: 'anonymous'; timezone: string | undefined }
  /** The bearer of one token's status link (tokens.visits.ts): that token's holder, nobody else. */
  | { kind: 'status_link'; tokenId: string; timezone: string | undefined }
  | {
      kind: 'user';
      userId: string;
      email: string | null;
      phone: string | null;
      isAnonymous: boolean;
      timezone: string | undefined;
    };

export type SignedInCaller = Extract<Caller, { kind: 'user' }>;

/** The signed-in caller, or 401 for anonymous ones. */
export function requireUser(caller: Caller): SignedInCaller {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  return caller;
}
