import { createHmac } from 'node:crypto';
import type { IceServers } from '@upnext/contract/meetings';
import type { IceConfig } from '../../config.ts';

/**
 * The ICE servers one user gets for a meeting: the configured STUN servers, and the TURN relay
 * with a credential of coturn's REST scheme (`--use-auth-secret`): username `expiry:userId`
 * (expiry in Unix seconds), password the base64 HMAC-SHA1 of the username under the shared
 * secret. coturn checks both without asking us; the credential stops working at the expiry,
 * and no static TURN password ever reaches a browser.
 */
export function iceServersFor(config: IceConfig, userId: string, now: Date): IceServers {
  const iceServers: IceServers['iceServers'] = [];
  if (config.stunUrls.length > 0) iceServers.push({ urls: [...config.stunUrls] });
  if (!config.turn) return { iceServers, expiresAt: null };
  const expiry = Math.floor(now.getTime() / 1000) + config.turn.ttlSeconds;
  const username = `${expiry}:${userId}`;
  iceServers.push({
    urls: [...config.turn.urls],
    username,
    credential: turnPassword(config.turn.secret, username),
  });
  return { iceServers, expiresAt: new Date(expiry * 1000).toISOString() };
}

export function turnPassword(secret: string, username: string): string {
  return createHmac('sha1', secret).update(username).digest('base64');
}
