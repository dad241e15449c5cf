import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { api } from '../api-helpers.ts';
import {
  calledVisitor,
  framesDecoded,
  type IceServers,
  recordPeerConnections,
  selectedPairs,
} from './call-helpers.ts';

/**
 * A call through the TURN relay alone. coturn (Debian's `turnserver`) is started here on the
 * port and with the secret the e2e server was configured with (TURN_URLS, TURN_SECRET in
 * playwright.config.ts), so each party's credential is the one the product's
 * `GET /api/meetings/{id}/ice-servers` hands it.
 *
 * How the policy is applied: the product's UI has no relay-only switch, so each browser builds
 * its own RTCPeerConnection in the page from its party's ice-servers answer with
 * `iceTransportPolicy: 'relay'`, sends the fake camera and microphone, and the test carries
 * the offer and answer between the two pages (complete SDP, no trickle). What this proves is
 * the product's TURN configuration and credentials with a real relay and real browsers; the
 * product's call screen is covered by call.spec.ts.
 */
const turnPort = Number(process.env.E2E_TURN_PORT);
const turnSecret = process.env.E2E_TURN_SECRET ?? '';

const hasTurnserver = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v turnserver'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test.describe('a call through the TURN relay alone', () => {
  // CI installs coturn (.ci/run): there a missing turnserver fails instead of skipping.
  test.skip(!hasTurnserver && !process.env.CI, 'coturn (turnserver) is not installed');
  test.describe.configure({ mode: 'serial', timeout: 90_000 });

  let coturn: ChildProcess | undefined;
  let dir = '';

  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'upnext-e2e-turn-'));
    const relayFrom = 20_000 + Math.floor(Math.random() * 20_000);
    coturn = spawn(
      'turnserver',
      [
        '-n',
        '--listening-ip=127.0.0.1',
        `--listening-port=${turnPort}`,
        '--relay-ip=127.0.0.1',
        `--min-port=${relayFrom}`,
        `--max-port=${relayFrom + 40}`,
        '--use-auth-secret',
        `--static-auth-secret=${turnSecret}`,
        '--realm=upnext.test',
        '--no-tls',
        '--no-dtls',
        '--no-cli',
        '--no-tcp',
        '--allow-loopback-peers',
        `--pidfile=${join(dir, 'turnserver.pid')}`,
        `--db=${join(dir, 'turndb')}`,
        '--log-file=stdout',
        '--simple-log',
      ],
      { stdio: 'ignore' },
    );
  });

  test.afterAll(() => {
    coturn?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("staff and visitor connect over relay candidates only, with the product's credentials", async ({
    browser,
    request,
  }) => {
    const world = await calledVisitor(request, 'T');
    const meeting = await api<{ id: string; state: string }>(
      request,
      world.staff,
      'POST',
      '/meetings',
      { sessionId: world.sessionId, tokenId: world.tokenId },
    );
    expect(meeting.state).toBe('ringing');
    const path = `/meetings/${meeting.id}/ice-servers`;
    const staffIce = await api<IceServers>(request, world.staff, 'GET', path);
    const visitorIce = await api<IceServers>(request, world.visitor, 'GET', path);
    for (const ice of [staffIce, visitorIce]) {
      const turn = ice.iceServers.find((server) => server.username);
      expect(turn?.urls).toEqual([`turn:127.0.0.1:${turnPort}?transport=udp`]);
    }
    // Each party has a credential of its own (coturn's REST scheme: `expiry:userId`).
    expect(staffIce.iceServers.at(-1)?.username).toContain(world.staff.user.id);
    expect(visitorIce.iceServers.at(-1)?.username).toContain(world.visitor.user.id);

    const staff = await relayPage(browser);
    const visitor = await relayPage(browser);
    const offer = await staff.evaluate(startPeer, { ice: staffIce, offer: null });
    const answer = await visitor.evaluate(startPeer, { ice: visitorIce, offer });
    // Relay-only: nothing but relayed candidates is offered by either side.
    for (const sdp of [offer, answer]) {
      expect(sdp).toMatch(/typ relay/);
      expect(sdp).not.toMatch(/typ (host|srflx|prflx)/);
    }
    await staff.evaluate(async (sdp) => {
      const pc = (window as unknown as { __peers: RTCPeerConnection[] }).__peers[0];
      await pc?.setRemoteDescription({ type: 'answer', sdp });
    }, answer);

    for (const page of [staff, visitor]) {
      await expect
        .poll(() => selectedPairs(page), { timeout: 20_000 })
        .toEqual([{ local: 'relay', remote: 'relay' }]);
    }
    // Video flows both ways through the relay: frames keep being decoded on each side.
    for (const page of [staff, visitor]) {
      const before = await framesDecoded(page);
      await expect.poll(() => framesDecoded(page), { timeout: 15_000 }).toBeGreaterThan(before);
    }
  });

  test('a credential not signed with the secret gets no relay (coturn answers 401)', async ({
    browser,
    request,
  }) => {
    const world = await calledVisitor(request, 'U');
    const meeting = await api<{ id: string }>(request, world.staff, 'POST', '/meetings', {
      sessionId: world.sessionId,
      tokenId: world.tokenId,
    });
    const ice = await api<IceServers>(
      request,
      world.visitor,
      'GET',
      `/meetings/${meeting.id}/ice-servers`,
    );
    const forged: IceServers = {
      ...ice,
      iceServers: ice.iceServers.map((server) =>
        server.username ? { ...server, credential: 'bm90LXRoZS1zZWNyZXQ=' } : server,
      ),
    };
    const page = await relayPage(browser);
    const result = await page.evaluate(async (servers) => {
      const pc = new RTCPeerConnection({ ...servers, iceTransportPolicy: 'relay' });
      const errors: number[] = [];
      pc.addEventListener('icecandidateerror', (event) => errors.push(event.errorCode));
      pc.createDataChannel('probe');
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') resolve();
        pc.addEventListener('icegatheringstatechange', () => {
          if (pc.iceGatheringState === 'complete') resolve();
        });
      });
      return { sdp: pc.localDescription?.sdp ?? '', errors };
    }, forged);
    expect(result.sdp).not.toMatch(/typ relay/);
    expect(result.errors).toContain(401);
  });
});

async function relayPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await recordPeerConnections(page);
  // Any page of the app: a secure origin (localhost) for getUserMedia.
  await page.goto('/pricing');
  return page;
}

/**
 * In the page: a relay-only peer with the fake camera and microphone. Without `offer` it makes
 * one; with it, it answers. Answers its complete local description once gathering is done.
 */
async function startPeer({ ice, offer }: { ice: IceServers; offer: string | null }) {
  const pc = new RTCPeerConnection({ iceServers: ice.iceServers, iceTransportPolicy: 'relay' });
  pc.addEventListener('track', (event) => {
    // A sink for the remote video, as a call screen has.
    if (event.track.kind !== 'video') return;
    const video = document.createElement('video');
    video.muted = true;
    video.autoplay = true;
    video.srcObject = event.streams[0] ?? new MediaStream([event.track]);
    document.body.append(video);
  });
  const media = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
  for (const track of media.getTracks()) pc.addTrack(track, media);
  if (offer) {
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
  } else {
    await pc.setLocalDescription(await pc.createOffer());
  }
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') resolve();
    });
  });
  return pc.localDescription?.sdp ?? '';
}
