import { act, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { ChatDrawer } from './ChatDrawer.tsx';
import { ChatNotice } from './ChatNotice.tsx';
import { type ChatChannel, ChatSession } from './chatSession.ts';
import { type FakeDataChannel, fakeChannelPair } from './fakeChannelPair.ts';
import { CHAT_NOTICE_MS, useMeetingChat } from './useMeetingChat.ts';

// jsdom has no object URLs.
const createObjectURL = vi.fn((_blob: Blob) => 'blob:http://localhost/chat-file');
const revokeObjectURL = vi.fn();
beforeEach(() => {
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});
afterEach(() => {
  vi.useRealTimers();
  createObjectURL.mockClear();
  revokeObjectURL.mockClear();
});

/** The meeting screen's use of the chat: a chat toggle with the unread count, the notice, the drawer. */
function Screen({ channel, tone }: { channel: ChatChannel | null; tone: () => void }) {
  const chat = useMeetingChat(channel, { tone });
  return (
    <>
      <button type="button" onClick={() => chat.setOpened(!chat.opened)}>
        {`Chat, ${chat.unread} unread`}
      </button>
      <ChatNotice chat={chat} />
      <ChatDrawer chat={chat} />
    </>
  );
}

async function setUp(options: Parameters<typeof fakeChannelPair>[0] = {}) {
  const [mine, theirs] = fakeChannelPair(options);
  const peer = new ChatSession(theirs, { createObjectURL, revokeObjectURL });
  const tone = vi.fn();
  const view = renderWithProviders(<Screen channel={mine} tone={tone} />);
  // No pause between keystrokes: the fake network's timers are what the test waits on.
  return { mine, theirs, peer, tone, view, user: userEvent.setup({ delay: null }) };
}

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: /^Chat, / }));
  return screen.findByRole('dialog', { name: 'Chat' });
}

const peerTexts = (peer: ChatSession) =>
  peer.getSnapshot().messages.map(({ msg, sender, type }) => ({ msg, sender, type }));

// Generous limits for a loaded machine; nothing here is timed.
describe('the chat drawer', { timeout: 20_000 }, () => {
  it('sends a trimmed message with Enter or Send, and shows both sides in the log', async () => {
    const { peer, user } = await setUp();
    const drawer = await openDrawer(user);
    const input = within(drawer).getByRole('textbox', { name: 'Type a message' });
    await waitFor(() => expect(input).toHaveFocus());
    await waitFor(() => expect(within(drawer).queryByText(/not connected/)).toBeNull());

    await user.type(input, '  Good morning  {Enter}');
    expect(input).toHaveValue('');
    await user.type(input, 'Can you hear me?');
    await user.click(within(drawer).getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(peerTexts(peer)).toEqual([
        { msg: 'Good morning', sender: 'other', type: 'text' },
        { msg: 'Can you hear me?', sender: 'other', type: 'text' },
      ]),
    );

    act(() => void peer.sendText('Yes, loud and clear'));
    const log = within(drawer).getByRole('log', { name: 'Messages' });
    expect(await within(log).findByText('Yes, loud and clear')).toBeInTheDocument();
    expect(
      within(log)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['You: Good morning', 'You: Can you hear me?', 'Them: Yes, loud and clear']);

    // Blank input: nothing sent, nothing said.
    await user.type(input, '   {Enter}');
    expect(within(drawer).queryByRole('alert')).toBeNull();
    expect(peer.getSnapshot().messages).toHaveLength(3);
  });

  it('sends nothing while the channel is not open, and says why', async () => {
    const { mine, peer, user } = await setUp({ open: false });
    const send = vi.spyOn(mine, 'send');
    const drawer = await openDrawer(user);
    expect(within(drawer).getByRole('status')).toHaveTextContent('Chat is not connected yet');
    const input = within(drawer).getByRole('textbox', { name: 'Type a message' });
    await user.type(input, 'Hello?{Enter}');
    expect(await within(drawer).findByRole('alert')).toHaveTextContent(
      'Not sent: the chat is not connected.',
    );
    expect(input).toHaveValue('Hello?');
    expect(send).not.toHaveBeenCalled();
    expect(peer.getSnapshot().messages).toEqual([]);
  });

  it('with the drawer closed, an arriving message shows the notice with a tone and counts as unread', async () => {
    const { peer, tone, user } = await setUp();
    await waitFor(() => expect(peer.getSnapshot().open).toBe(true));
    act(() => void peer.sendText('Are you there?'));
    const notice = await screen.findByText('You have new chat message');
    expect(notice).toBeInTheDocument();
    expect(screen.getByText('Are you there?')).toBeInTheDocument();
    expect(tone).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Chat, 1 unread' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open chat' }));
    const drawer = await screen.findByRole('dialog', { name: 'Chat' });
    expect(screen.queryByText('You have new chat message')).toBeNull();
    expect(screen.getByRole('button', { name: 'Chat, 0 unread' })).toBeInTheDocument();

    // With the drawer open, no notice and no tone.
    act(() => void peer.sendText('Here is the report'));
    expect(await within(drawer).findByText('Here is the report')).toBeInTheDocument();
    expect(screen.queryByText('You have new chat message')).toBeNull();
    expect(tone).toHaveBeenCalledTimes(1);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Chat' })).toBeNull());
  });

  it('sends a file chosen with Attach file, with its progress, until the other side has checked it', async () => {
    const { peer, user } = await setUp({ bytesPerTick: 16 * 1024 });
    const drawer = await openDrawer(user);
    await waitFor(() => expect(within(drawer).queryByText(/not connected/)).toBeNull());
    expect(within(drawer).getByRole('button', { name: 'Attach file' })).toBeInTheDocument();
    const data = new Uint8Array(2 * 1024 * 1024).map((_, i) => (i * 7) % 251);
    const chooser = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!chooser) throw new Error('no file input');
    await user.upload(chooser, new File([data], 'results.pdf', { type: 'application/pdf' }));

    const log = within(drawer).getByRole('log', { name: 'Messages' });
    expect(await within(log).findByText('results.pdf')).toBeInTheDocument();
    expect(
      await within(log).findByRole('progressbar', { name: /^results\.pdf: \d+%$/ }),
    ).toBeInTheDocument();
    expect(within(log).getByRole('button', { name: 'Cancel results.pdf' })).toBeInTheDocument();
    // The fake network delivers 16 KiB per macrotask: a while on a loaded machine.
    const done = await within(log).findByText('Sent and checked', {}, { timeout: 10_000 });
    expect(done.parentElement).toHaveTextContent(/^2 MB · Sent and checked$/);
    expect(within(log).queryByRole('progressbar')).toBeNull();
    expect(within(log).queryByRole('button', { name: /^Cancel/ })).toBeNull();
    expect(peer.getSnapshot().transfers[0]).toMatchObject({
      name: 'results.pdf',
      size: data.byteLength,
      status: 'complete',
    });
  });

  it('receives a file with a download link, and cancels one under way', async () => {
    const { peer, user } = await setUp({ bytesPerTick: 16 * 1024 });
    const drawer = await openDrawer(user);
    await waitFor(() => expect(peer.getSnapshot().open).toBe(true));
    act(
      () => void peer.sendFile(new File(['a'.repeat(2000)], 'notes.txt', { type: 'text/plain' })),
    );
    const log = within(drawer).getByRole('log', { name: 'Messages' });
    const link = await within(log).findByRole('link', { name: 'Download notes.txt' });
    expect(link).toHaveAttribute('href', 'blob:http://localhost/chat-file');
    expect(link).toHaveAttribute('download', 'notes.txt');
    expect(within(log).getByText(/Received and checked/)).toBeInTheDocument();
    const blob = createObjectURL.mock.calls[0]?.[0];
    expect(await blob?.text()).toBe('a'.repeat(2000));

    act(() => void peer.sendFile(new File([new Uint8Array(4 * 1024 * 1024)], 'scan.dcm')));
    const cancel = await within(log).findByRole('button', { name: 'Cancel scan.dcm' });
    await user.click(cancel);
    expect(await within(log).findByText(/Cancelled$/)).toBeInTheDocument();
    await waitFor(() =>
      expect(peer.getSnapshot().transfers[1]).toMatchObject({
        status: 'cancelled',
        cancelledBy: 'other',
      }),
    );
  });

  it('says plainly when a file fails its checksum', async () => {
    const tamper = (data: ArrayBuffer) => {
      const copy = new Uint8Array(data.slice(0));
      copy[0] = (copy[0] ?? 0) ^ 1;
      return copy.buffer;
    };
    const { peer, user } = await setUp({ tamper });
    const drawer = await openDrawer(user);
    await waitFor(() => expect(peer.getSnapshot().open).toBe(true));
    act(() => void peer.sendFile(new File(['payload'], 'lab.csv')));
    expect(await within(drawer).findByRole('alert')).toHaveTextContent(
      'Failed: the file did not arrive intact (its SHA-256 checksum does not match).',
    );
    expect(within(drawer).queryByRole('link')).toBeNull();
  });
});

describe('useMeetingChat', () => {
  it('hides the notice after 5 s and keeps the messages when the channel is replaced', async () => {
    vi.useFakeTimers();
    const [first, peerEnd] = fakeChannelPair();
    const peer = new ChatSession(peerEnd);
    const tone = vi.fn();
    const { result, rerender } = renderHook(
      ({ channel }: { channel: FakeDataChannel | null }) => useMeetingChat(channel, { tone }),
      { initialProps: { channel: first } },
    );
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current.channelOpen).toBe(true);
    act(() => void peer.sendText('one'));
    act(() => void peer.sendText('two'));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current.unread).toBe(2);
    expect(result.current.notice?.msg).toBe('two');
    // Two messages at once: one tone.
    expect(tone).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(CHAT_NOTICE_MS));
    expect(result.current.notice).toBeNull();
    expect(result.current.unread).toBe(2);

    first.close();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current.channelOpen).toBe(false);
    expect(result.current.send('still there?')).toEqual({ ok: false, reason: 'not_open' });

    const [second] = fakeChannelPair();
    rerender({ channel: second });
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(result.current.channelOpen).toBe(true);
    expect(result.current.messages.map((m) => m.msg)).toEqual(['one', 'two']);
    act(() => void result.current.send('back again'));
    expect(result.current.messages.map((m) => m.msg)).toEqual(['one', 'two', 'back again']);
    peer.dispose();
  });

  it('plays the tone with WebAudio, without downloading anything', async () => {
    const started: number[] = [];
    class FakeAudioContext {
      state = 'running';
      currentTime = 0;
      destination = {};
      createOscillator() {
        const node = {
          type: '',
          frequency: { setValueAtTime: (value: number) => started.push(value) },
          connect: (next: unknown) => next,
          start: vi.fn(),
          stop: vi.fn(),
        };
        return node;
      }
      createGain() {
        return {
          gain: { setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() },
          connect: (next: unknown) => next,
        };
      }
      resume = vi.fn(async () => undefined);
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { playChatTone } = await import('./tone.ts');
    playChatTone();
    expect(started).toEqual([880, 1320]);
    expect(fetchSpy).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
