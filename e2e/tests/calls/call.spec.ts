import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { type ApiSession, api, useSession } from '../api-helpers.ts';
import { blockingViolations } from '../axe.ts';
import { subscribed } from '../realtime-helpers.ts';
import {
  type CalledVisitor,
  calledVisitor,
  framesDecoded,
  recordPeerConnections,
} from './call-helpers.ts';

const shots = fileURLToPath(new URL('../../screenshots/', import.meta.url));

/** Media, chat and file transfer on a loaded 2-core machine: room for each step. */
const within = { timeout: 30_000 };

/** A signed-in browser of its own (a context: its own storage, camera and connections). */
async function party(browser: Browser, session: ApiSession, width: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 800 },
    permissions: ['camera', 'microphone'],
  });
  const page = await context.newPage();
  await recordPeerConnections(page);
  await useSession(page, session);
  return page;
}

/**
 * The visitor somewhere in the app (My sessions) listening on their meeting topic, and staff
 * on the live console of the session, the token being served.
 */
async function openBoth(browser: Browser, world: CalledVisitor) {
  const visitor = await party(browser, world.visitor, 390);
  const listening = subscribed(visitor, '/topic/meeting/');
  await visitor.goto('/admin/my-sessions');
  await listening;
  const staff = await party(browser, world.staff, 1280);
  await staff.goto(`/admin/live-sessions/all/${world.today}/${world.sessionId}`);
  return { staff, visitor };
}

/** Staff press "Video call" on the live console; the visitor's phone rings. */
async function ring(staff: Page, visitor: Page) {
  await staff.getByRole('button', { name: 'Video call' }).click();
  await expect(staff).toHaveURL(/\/admin\/meeting\/[^/]+\/[^/]+\/[^/]+$/);
  const dialog = visitor.getByRole('dialog', { name: 'Incoming call' });
  await expect(dialog).toBeVisible(within);
  return dialog;
}

/** A control of the call bar; the bar hides after 3 s without a mouse move, so move first. */
async function control(page: Page, name: string) {
  await page.getByTestId('meeting-stage').hover({ position: { x: 20, y: 20 } });
  const button = page.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', {
    name,
    exact: true,
  });
  await button.click();
}

async function expectVideoFlowing(page: Page) {
  const before = await framesDecoded(page);
  await expect.poll(() => framesDecoded(page), within).toBeGreaterThan(before);
}

/** The meeting's state as the server has it (the id from the meeting screen's route). */
async function meetingState(page: Page, session: ApiSession) {
  const meetingId = /\/admin\/meeting\/[^/]+\/[^/]+\/([^/]+)$/.exec(page.url())?.[1] ?? '';
  return meetingId
    ? (await api<{ state: string }>(page.request, session, 'GET', `/meetings/${meetingId}`)).state
    : 'no meeting route';
}

test.describe('video consultation in two browsers', () => {
  test.describe.configure({ timeout: 360_000 });
  // Each action waits this long at most (the test's own timeout is for the whole journey).
  test.use({ actionTimeout: 30_000 });

  test('staff call from the live console; the visitor answers; video, mute, camera, chat, a 5 MiB file and screen share work both ways; Exit closes both', async ({
    browser,
    request,
  }) => {
    const world = await calledVisitor(request, 'C');
    const { staff, visitor } = await openBoth(browser, world);
    const dialog = await ring(staff, visitor);
    await dialog.getByRole('button', { name: 'Answer' }).click();

    // The meeting screen opens on both sides once the remote track arrives.
    for (const page of [staff, visitor]) {
      await expect(page.getByTestId('meeting-stage')).toBeVisible(within);
      await expect(page.getByTestId('remote-video')).toBeVisible(within);
    }
    await expect(visitor).toHaveURL(staff.url());
    expect(await meetingState(staff, world.staff)).toBe('active');
    // Video flows both ways: the decoder keeps producing frames on each side.
    await expectVideoFlowing(staff);
    await expectVideoFlowing(visitor);
    expect(await blockingViolations(staff)).toEqual([]);
    expect(await blockingViolations(visitor)).toEqual([]);
    await staff.screenshot({ path: `${shots}meeting-staff-1280.png` });
    await visitor.screenshot({ path: `${shots}meeting-visitor-390.png` });

    // Mute and camera off, seen by the other side; and back.
    await control(staff, 'Mute');
    const muted = visitor.getByText(`${world.staff.user.email} is muted`);
    await expect(muted).toBeVisible(within);
    await control(staff, 'Unmute');
    await expect(muted).toBeHidden(within);
    await control(visitor, 'Turn camera off');
    await expect(staff.getByTestId('remote-status')).toContainText('camera is off', within);
    await expect(staff.getByTestId('remote-video')).toHaveAttribute('data-video-off', 'true');
    await control(visitor, 'Turn camera on');
    await expect(staff.getByTestId('remote-video')).toHaveAttribute(
      'data-video-off',
      'false',
      within,
    );
    await expectVideoFlowing(staff);

    // Chat both ways: with the drawer closed the visitor is told a message came.
    await control(staff, 'Chat');
    const staffChat = staff.getByRole('dialog', { name: 'Chat' });
    await expect(staffChat).toBeVisible();
    await staffChat
      .getByRole('textbox', { name: 'Type a message' })
      .fill('  Hello, can you hear me?  ');
    await staffChat.getByRole('textbox', { name: 'Type a message' }).press('Enter');
    await expect(visitor.getByText('You have new chat message')).toBeVisible(within);
    await control(visitor, 'Chat');
    const visitorChat = visitor.getByRole('dialog', { name: 'Chat' });
    await expect(visitorChat.getByText('Hello, can you hear me?', { exact: true })).toBeVisible(
      within,
    );
    await visitorChat.getByRole('textbox', { name: 'Type a message' }).fill('Yes, loud and clear');
    await visitorChat.getByRole('button', { name: 'Send' }).click();
    await expect(staffChat.getByText('Yes, loud and clear', { exact: true })).toBeVisible(within);

    // A 5 MiB file from the visitor arrives at staff with the same SHA-256.
    const bytes = randomBytes(5 * 1024 * 1024);
    const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    // From a file on disk: the browser reads the path itself (a 5 MiB buffer sent over the
    // protocol is slow on a loaded machine).
    const upload = test.info().outputPath('scan-results.pdf');
    await writeFile(upload, bytes);
    const chooser = visitor.waitForEvent('filechooser');
    await visitorChat.getByRole('button', { name: 'Attach file' }).click();
    await (await chooser).setFiles(upload);
    const link = staffChat.getByRole('link', { name: 'Download scan-results.pdf' });
    await expect(link).toBeVisible({ timeout: 90_000 });
    const download = staff.waitForEvent('download');
    await link.click();
    const saved = await (await download).path();
    expect(sha256(await readFile(saved))).toBe(sha256(bytes));
    expect(await blockingViolations(staff)).toEqual([]);
    await staff.screenshot({ path: `${shots}meeting-chat-staff-1280.png` });
    await visitor.screenshot({ path: `${shots}meeting-chat-visitor-390.png` });
    await staffChat.getByRole('button', { name: 'Close chat' }).click();
    await visitorChat.getByRole('button', { name: 'Close chat' }).click();

    // Screen share on (the button turns into Stop share; the visitor keeps getting frames),
    // then off, back to the camera.
    await control(staff, 'Share screen');
    await expect(
      staff.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', {
        name: 'Stop share',
      }),
    ).toBeAttached(within);
    await expect(staff.getByText('You are sharing your screen')).toBeVisible();
    await expectVideoFlowing(visitor);
    await control(staff, 'Stop share');
    await expect(staff.getByText('You are sharing your screen')).toBeHidden(within);
    await expectVideoFlowing(visitor);

    // Exit closes both: the stage goes, the visitor is told, the connections are closed.
    await control(staff, 'Exit');
    for (const page of [staff, visitor]) {
      await expect(page.getByTestId('meeting-stage')).toBeHidden(within);
      await expect
        .poll(() =>
          page.evaluate(() =>
            ((window as unknown as { __peers: RTCPeerConnection[] }).__peers ?? []).map(
              (pc) => pc.connectionState,
            ),
          ),
        )
        .toEqual(['closed']);
    }
    await expect(visitor.getByText('The call has ended')).toBeVisible(within);
  });

  test('the visitor declines: the ringing stops and staff see "declined"', async ({
    browser,
    request,
  }) => {
    const world = await calledVisitor(request, 'D');
    const { staff, visitor } = await openBoth(browser, world);
    const dialog = await ring(staff, visitor);
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(dialog).toBeHidden(within);
    await expect(staff.getByRole('heading', { name: 'The visitor declined the call' })).toBeVisible(
      within,
    );
    expect(await meetingState(staff, world.staff)).toBe('declined');
    // Nothing was connected on either side.
    expect(await framesDecoded(visitor)).toBe(0);
  });

  test('an unanswered call becomes missed on both sides after 45 s', async ({
    browser,
    request,
  }) => {
    // The server's ring time is the contract's `meetingRingMs` (45 s) and has no test
    // setting, so this test waits it out (about 50 s with the server's 2 s sweep).
    const world = await calledVisitor(request, 'M');
    const { staff, visitor } = await openBoth(browser, world);
    const dialog = await ring(staff, visitor);
    const missed = { timeout: 80_000 };
    await expect(
      staff.getByRole('heading', { name: 'No answer: the call was missed' }),
    ).toBeVisible(missed);
    await expect(dialog).toBeHidden(missed);
    await expect(visitor.getByText('You missed a video call')).toBeVisible(within);
    expect(await meetingState(staff, world.staff)).toBe('missed');
  });
});
