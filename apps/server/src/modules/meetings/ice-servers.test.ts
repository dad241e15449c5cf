import { describe, expect, it } from 'vitest';
import { iceServersFor } from './ice-servers.ts';

const userId = '0b6f4c1e-2f43-4a8e-9d6a-3c1f8e2b7a10';
const now = new Date(1_700_000_000_000);

describe('ICE servers for a meeting', () => {
  it("mints a TURN credential of coturn's REST scheme, per user, expiring after the TTL", () => {
    const servers = iceServersFor(
      {
        stunUrls: ['stun:stun.example.com:3478'],
        turn: {
          urls: ['turn:turn.example.com:3478'],
          secret: 'coturn-shared-secret',
          ttlSeconds: 3600,
        },
      },
      userId,
      now,
    );
    expect(servers).toEqual({
      iceServers: [
        { urls: ['stun:stun.example.com:3478'] },
        {
          urls: ['turn:turn.example.com:3478'],
          username: `1700003600:${userId}`,
          // printf '%s' '1700003600:<userId>' | openssl dgst -sha1 -hmac coturn-shared-secret -binary | base64
          credential: 'iH+qOuHHPwEWFhbU3vtrqDyZ9kY=',
        },
      ],
      expiresAt: '2023-11-14T23:13:20.000Z',
    });
  });

  it('gives only the STUN servers (or none) when no TURN relay is configured', () => {
    expect(iceServersFor({ stunUrls: [], turn: null }, userId, now)).toEqual({
      iceServers: [],
      expiresAt: null,
    });
    expect(
      iceServersFor({ stunUrls: ['stun:a.example.com'], turn: null }, userId, now).iceServers,
    ).toEqual([{ urls: ['stun:a.example.com'] }]);
  });
});
