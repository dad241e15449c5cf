import { describe, expect, it } from 'vitest';
import { buildPath, isKnownSpaPath, matchBoardPath, requiresSignIn, spaRoutes } from './routes.ts';

describe('spa routes', () => {
  it('knows every screen of the spec and rejects other paths', () => {
    expect(isKnownSpaPath('/')).toBe(true);
    expect(isKnownSpaPath('/pricing')).toBe(true);
    expect(isKnownSpaPath('/admin/live-sessions/sq1/2026-11-22/s1')).toBe(true);
    expect(isKnownSpaPath('/admin/live-sessions/sq1/2026-11-22')).toBe(false);
    expect(isKnownSpaPath('/pricing/extra')).toBe(false);
    expect(isKnownSpaPath('/no-such-page')).toBe(false);
  });

  it('guards admin screens except the payment-success page', () => {
    expect(requiresSignIn(spaRoutes.adminQueues)).toBe(true);
    expect(requiresSignIn(spaRoutes.adminPaymentSuccess)).toBe(false);
    expect(requiresSignIn(spaRoutes.pricing)).toBe(false);
  });

  it('url-encodes path variables and refuses missing ones', () => {
    expect(buildPath('/queues/:queueId/sessions', { queueId: 'a b/c' })).toBe(
      '/queues/a%20b%2Fc/sessions',
    );
    expect(() => buildPath('/queues/:queueId', {})).toThrow(/queueId/);
  });
});

describe('board paths', () => {
  it('names the board and its id, decoded, and nothing for other paths', () => {
    expect(matchBoardPath('/display/abc')).toEqual({ board: 'session', sessionId: 'abc' });
    expect(matchBoardPath('/display/queue/q%201')).toEqual({ board: 'queue', queueId: 'q 1' });
    expect(matchBoardPath('/display/queue/q1/')).toEqual({ board: 'queue', queueId: 'q1' });
    expect(matchBoardPath('/display')).toBeNull();
    expect(matchBoardPath('/display/a/b/c')).toBeNull();
    expect(matchBoardPath('/display/%E0%A4%A')).toBeNull();
    expect(matchBoardPath('/join')).toBeNull();
  });
});
