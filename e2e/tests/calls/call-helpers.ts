import type { APIRequestContext, Page } from '@playwright/test';
import {
  type ApiSession,
  api,
  createCompanyOnPlan,
  createQueue,
  openSessionToday,
  signUpViaApi,
} from '../api-helpers.ts';
import { uniqueEmail } from '../auth-helpers.ts';

const PASSWORD = 'Video-call-journey-2026!';

export type CalledVisitor = {
  staff: ApiSession;
  visitor: ApiSession;
  queueId: string;
  sessionId: string;
  tokenId: string;
  /** The token as called out, e.g. "V-001". */
  tokenLabel: string;
  /** The session's date (UTC), for the live console's route. */
  today: string;
};

/**
 * The state a video call starts from, made through the API as the product's users would:
 * staff open a session of a queue offering video (`online`), a signed-in visitor takes a
 * token, and staff call it with "Call next".
 */
export async function calledVisitor(
  request: APIRequestContext,
  prefix = 'V',
): Promise<CalledVisitor> {
  const staff = await signUpViaApi(request, uniqueEmail('doctor'), PASSWORD);
  const company = await createCompanyOnPlan(request, staff, {
    name: `Video Clinic ${prefix}`,
    timezone: 'UTC',
  });
  const queue = await createQueue(request, staff, {
    companyId: company.id,
    name: 'Remote consultations',
    tokenPrefix: prefix,
    mode: 'hybrid',
    online: true,
  });
  const { sessionId, today } = await openSessionToday(request, staff, queue.id);

  const visitor = await signUpViaApi(request, uniqueEmail('patient'), PASSWORD);
  const token = await api<{ id: string; label: string }>(
    request,
    visitor,
    'POST',
    '/queues/sessions/tokens',
    { sessionId },
  );
  const next = await api<{ called: { id: string } | null }>(
    request,
    staff,
    'POST',
    '/queues/sessions/next-token',
    { sessionId },
  );
  if (next.called?.id !== token.id) throw new Error('"Call next" did not call the visitor');
  return {
    staff,
    visitor,
    queueId: queue.id,
    sessionId,
    tokenId: token.id,
    tokenLabel: token.label,
    today,
  };
}

export type IceServers = {
  iceServers: Array<{ urls: string[]; username?: string; credential?: string }>;
  expiresAt: string | null;
};

/**
 * A test hook of the test, not of the product: every RTCPeerConnection the page creates is
 * kept in `window.__peers`, so the test can read `getStats()` of the product's own connection.
 * Call before the page loads.
 */
export async function recordPeerConnections(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __peers: RTCPeerConnection[] };
    if (w.__peers) return;
    w.__peers = [];
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        w.__peers.push(this);
      }
    };
  });
}

/** Video frames decoded so far on the page's peer connections (inbound-rtp, kind video). */
export function framesDecoded(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers?: RTCPeerConnection[] }).__peers ?? [];
    let frames = 0;
    for (const pc of peers) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((report) => {
        if (report.type === 'inbound-rtp' && report.kind === 'video') {
          frames += report.framesDecoded ?? 0;
        }
      });
    }
    return frames;
  });
}

/** The candidate types (host, srflx, relay) of the selected pair of each connected peer. */
export function selectedPairs(page: Page): Promise<Array<{ local: string; remote: string }>> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers?: RTCPeerConnection[] }).__peers ?? [];
    const pairs: Array<{ local: string; remote: string }> = [];
    for (const pc of peers) {
      if (pc.connectionState !== 'connected') continue;
      const stats = await pc.getStats();
      stats.forEach((report) => {
        if (report.type !== 'transport' || !report.selectedCandidatePairId) return;
        const pair = stats.get(report.selectedCandidatePairId);
        pairs.push({
          local: stats.get(pair?.localCandidateId)?.candidateType ?? 'none',
          remote: stats.get(pair?.remoteCandidateId)?.candidateType ?? 'none',
        });
      });
    }
    return pairs;
  });
}
