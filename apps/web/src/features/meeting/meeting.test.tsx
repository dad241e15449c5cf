import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Meeting } from '@upnext/contract/meetings';
import type { UserData } from '@upnext/contract/users';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as MeetingPage } from '../../app/routes/admin/MeetingPage.tsx';
import { setAuthSession } from '../../lib/auth-session.ts';
import { realtime } from '../../lib/stomp-client.ts';
import { fakeRealtime } from '../../test/realtime.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { CallHost } from './components/CallHost.tsx';
import { callController } from './model/callStore.ts';
import { FakePeerConnection, FakeStream, FakeTrack } from './model/fakeWebRtc.ts';

vi.mock('../../lib/stomp-client.ts', async (original) =>
  (await import('../../test/realtime.ts')).mockStompClient(await original()),
);

const MEETING = '3f1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SESSION = '6f1d2c7a-3b1e-4f4e-9a8c-2d2b6f9e0a11';
const TOKEN = '0b7c1f8e-2d3a-4c5b-8e9f-1a2b3c4d5e6f';
const QUEUE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const meetingPath = `/admin/meeting/${QUEUE}/${SESSION}/${MEETING}`;

const userData: UserData = {
  userId: '0b7e4c1a-1f2d-4c3b-9a8e-7d6c5b4a3f26',
  email: 'vera@example.com',
  phone: null,
  displayName: 'Vera Visitor',
  avatarUrl: null,
  timezone: null,
  subscribeId: 'sub-vera',
  companies: [],
};
const meeting: Meeting = {
  id: MEETING,
  queueId: QUEUE,
  sessionId: SESSION,
  tokenId: TOKEN,
  tokenLabel: 'A-017',
  companyName: 'Harbourview Health Centre',
  queueName: 'Online GP',
  state: 'ringing',
  staffUserId: '5e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  staffName: 'Dr Grace Hopper',
  visitorUserId: userData.userId,
  visitorName: 'Vera Visitor',
  role: 'visitor',
  createdAt: '2026-11-25T16:00:00.000Z',
  ringingUntil: '2026-11-25T16:00:45.000Z',
  answeredAt: null,
  endedAt: null,
};
const meta = { sessionId: SESSION, token: TOKEN, email: 'grace@example.com', meetingId: MEETING };
const offer = {
  type: 'offer',
  offer: { type: 'offer', sdp: 'v=0\r\na=fingerprint:sha-256 THEIRS\r\na=ice-ufrag:t1\r\n' },
  meta,
};
const topic = '/topic/meeting/sub-vera';

const fetchMock = vi.fn<typeof fetch>();
let meetingAnswer: { status: number; body: unknown };
let pcs: FakePeerConnection[];

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

beforeEach(() => {
  pcs = [];
  meetingAnswer = { status: 200, body: { data: meeting } };
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/user/user-data')) return json(200, { data: userData });
    if (url === `/api/meetings/${MEETING}`) return json(meetingAnswer.status, meetingAnswer.body);
    if (url === `/api/meetings/${MEETING}/ice-servers`) {
      return json(200, { data: { iceServers: [{ urls: ['stun:127.0.0.1'] }], expiresAt: null } });
    }
    return json(404, { error: { code: 'not_found', message: url } });
  });
  vi.stubGlobal('fetch', fetchMock);
  // jsdom has no WebRTC or media devices: the fakes stand in for the browser's.
  vi.stubGlobal(
    'RTCPeerConnection',
    class extends FakePeerConnection {
      constructor(config: RTCConfiguration) {
        super(config);
        pcs.push(this);
      }
    },
  );
  vi.stubGlobal('MediaStream', FakeStream);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: async (c: MediaStreamConstraints) =>
        new FakeStream([
          ...(c.audio ? [new FakeTrack('audio', 'mic')] : []),
          ...(c.video ? [new FakeTrack('video', 'camera')] : []),
        ]),
    },
  });
  setAuthSession({
    accessToken: 'access-token',
    user: { id: userData.userId, email: 'vera@example.com' },
  });
});

afterEach(() => {
  notifications.clean();
  callController.exit();
  callController.dismiss();
  fakeRealtime(realtime).published.length = 0;
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  setAuthSession(null);
});

function show(path = '/admin/my-sessions') {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <CallHost />
          </>
        ),
        children: [
          { path: '/admin/my-sessions', element: <p>My sessions page</p> },
          { path: '/admin/meeting/:queueId/:sessionId/:meetingId', element: <MeetingPage /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

async function ring() {
  await waitFor(() => expect(fakeRealtime(realtime).topics).toContain(topic));
  fakeRealtime(realtime).send(topic, offer);
  return screen.findByRole('dialog', { name: 'Incoming call' });
}

const published = () =>
  fakeRealtime(realtime).published.map(({ body }) => body as { type: string });

describe('the incoming call (spec §2 "App shell")', () => {
  it('rings wherever the user is, naming the caller; Decline tells the caller and closes it', async () => {
    show();
    const dialog = await ring();
    expect(await within(dialog).findByText('Dr Grace Hopper is calling')).toBeInTheDocument();
    expect(
      within(dialog).getByText(/Harbourview Health Centre · Online GP · token A-017/),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('meter', { name: 'Microphone level' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(published()).toEqual([
      { type: 'decline', meta: { ...meta, email: 'vera@example.com' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Incoming call' })).toBeNull());
    expect(screen.getByText('My sessions page')).toBeInTheDocument();
  });

  it('a call not answered in time is missed: the dialog closes and says so', async () => {
    show();
    await ring();
    fakeRealtime(realtime).send(topic, {
      type: 'meeting.state',
      meetingId: MEETING,
      queueId: QUEUE,
      sessionId: SESSION,
      tokenId: TOKEN,
      state: 'missed',
      at: '2026-11-25T16:00:45.000Z',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Incoming call' })).toBeNull());
    expect(await screen.findByText('You missed a video call')).toBeInTheDocument();
    expect(published()).toEqual([]);
  });

  it('Answer sends the answer; the meeting opens when the remote track arrives, with its controls', async () => {
    const router = show();
    const dialog = await ring();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Answer' }));
    await waitFor(() => expect(published().map((m) => m.type)).toContain('answer'));
    expect(router.state.location.pathname).toBe('/admin/my-sessions');
    pcs[0]?.remoteTrack(new FakeTrack('video', 'their camera'));
    await waitFor(() => expect(router.state.location.pathname).toBe(meetingPath));
    const stage = await screen.findByRole('region', { name: 'Video call' });
    const controls = within(stage).getByRole('toolbar', { name: 'Call controls' });
    for (const name of ['Mute', 'Turn camera off', 'Chat', 'Full screen', 'Exit']) {
      expect(within(controls).getByRole('button', { name })).toBeInTheDocument();
    }
    await userEvent.click(within(controls).getByRole('button', { name: 'Mute' }));
    expect(within(controls).getByRole('button', { name: 'Unmute' })).toBeInTheDocument();
    await userEvent.click(within(controls).getByRole('button', { name: 'Turn camera off' }));
    expect(
      await within(controls).findByRole('button', { name: 'Turn camera on' }),
    ).toBeInTheDocument();
    await userEvent.click(within(controls).getByRole('button', { name: 'Exit' }));
    expect(published().at(-1)?.type).toBe('exit');
    expect(pcs[0]?.closed).toBe(true);
  });

  it('an exit from the other side closes the meeting and says the call has ended', async () => {
    const router = show();
    const dialog = await ring();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Answer' }));
    await waitFor(() => expect(published().map((m) => m.type)).toContain('answer'));
    pcs[0]?.remoteTrack(new FakeTrack('video', 'their camera'));
    await screen.findByRole('region', { name: 'Video call' });
    fakeRealtime(realtime).send(topic, { type: 'exit', meta });
    expect(await screen.findByRole('heading', { name: 'The call has ended' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Video call' })).toBeNull();
    expect(router.state.location.pathname).toBe(meetingPath);
  });
});

describe('the meeting screen', () => {
  it('refuses someone who is not one of its parties, in plain words', async () => {
    meetingAnswer = {
      status: 404,
      body: { error: { code: 'meeting_not_found', message: 'This meeting does not exist.' } },
    };
    show(meetingPath);
    expect(
      await screen.findByRole('heading', { name: 'You cannot join this meeting' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This meeting does not exist, or you are not one of its two parties.',
    );
    expect(pcs).toHaveLength(0);
  });

  it('refuses a link whose queue or session is not the meeting’s', async () => {
    show(`/admin/meeting/${QUEUE}/${TOKEN}/${MEETING}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link does not match the meeting.',
    );
  });

  it('the caller rings from it: the pre-call check shows and the offer goes out', async () => {
    meetingAnswer = { status: 200, body: { data: { ...meeting, role: 'staff' } } };
    show(meetingPath);
    await waitFor(() => expect(published().map((m) => m.type)).toEqual(['offer']));
    expect(screen.getByText('Calling Vera Visitor…')).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Microphone level' })).toBeInTheDocument();
    fakeRealtime(realtime).send(topic, { type: 'decline', meta });
    expect(
      await screen.findByRole('heading', { name: 'The visitor declined the call' }),
    ).toBeInTheDocument();
  });
});
