import { describe, expect, it } from 'vitest';
import {
  escapeHeader,
  messageFrame,
  prepareMessage,
  StompParser,
  StompProtocolError,
  serializeFrame,
  subscriptionHead,
} from './stomp-frame.ts';

const limits = { maxFrameBytes: 1024, maxHeaders: 4 };

describe('STOMP 1.2 frames', () => {
  it('reads a frame fed one byte at a time, with CRLF lines and heart-beats around it', () => {
    const parser = new StompParser(limits);
    const bytes = Buffer.from('\r\n\nSEND\r\ndestination:/app/call\r\n\r\nhi\0\n');
    const frames = [];
    let heartbeats = 0;
    for (const byte of bytes) {
      const out = parser.push(Buffer.from([byte]));
      frames.push(...out.frames);
      heartbeats += out.heartbeats;
    }
    expect(frames).toHaveLength(1);
    expect(frames[0]?.command).toBe('SEND');
    expect(frames[0]?.headers).toEqual({ destination: '/app/call' });
    expect(frames[0]?.body.toString()).toBe('hi');
    expect(heartbeats).toBe(3);
  });

  it('takes a body with NUL bytes when content-length says so', () => {
    const parser = new StompParser(limits);
    const { frames } = parser.push(Buffer.from('SEND\ndestination:/x\ncontent-length:3\n\na\0b\0'));
    expect([...(frames[0]?.body ?? [])]).toEqual([97, 0, 98]);
  });

  it('unescapes headers (not in CONNECT) and keeps the first of repeated headers', () => {
    const parser = new StompParser(limits);
    const { frames } = parser.push(
      Buffer.from('SEND\na\\cb:c\\\\d\\ne\na\\cb:second\n\n\0CONNECT\nx:a\\cb\n\n\0'),
    );
    expect(frames[0]?.headers).toEqual({ 'a:b': 'c\\d\ne' });
    expect(frames[1]?.headers).toEqual({ x: 'a\\cb' });
  });

  it.each([
    ['SEND\nx:\\t\n\n\0', 'Undefined escape sequence'],
    ['HELLO\n\n\0', 'Unknown command'],
    ['SEND\nnocolon\n\n\0', 'Malformed header line'],
    ['SEND\na:1\nb:2\nc:3\nd:4\ne:5\n\n\0', 'More than 4 headers'],
    ['SEND\ncontent-length:1\n\nab\0', 'longer than its content-length'],
    ['SEND\ncontent-length:5000\n\n', 'Frame larger than 1024 bytes'],
    [`SEND\n\n${'x'.repeat(2000)}`, 'Frame larger than 1024 bytes'],
    ['SEND\0', 'Frame ended before its headers did'],
  ])('refuses %j', (input, message) => {
    const parser = new StompParser(limits);
    expect(() => parser.push(Buffer.from(input))).toThrow(StompProtocolError);
    expect(() => new StompParser(limits).push(Buffer.from(input))).toThrow(message);
  });

  it('escapes headers and sets content-length on the way out; CONNECTED stays unescaped', () => {
    expect(escapeHeader('a:b\\c\nd\re')).toBe('a\\cb\\\\c\\nd\\re');
    expect(serializeFrame('MESSAGE', { 'a:b': 'c' }, 'é').toString()).toBe(
      'MESSAGE\na\\cb:c\ncontent-length:2\n\né\0',
    );
    expect(serializeFrame('CONNECTED', { x: 'a:b' }).toString()).toBe('CONNECTED\nx:a:b\n\n\0');
  });

  it("writes a prepared MESSAGE once and each subscription's frame around it, escaped and measured", () => {
    const body = JSON.stringify({ label: 'Ärzte: A-7', note: 'line\nbreak' });
    const message = prepareMessage('/topic/session/a:b', body);
    const frames = [
      messageFrame(message, subscriptionHead('sub:1')),
      messageFrame(message, subscriptionHead('sub-2'), { 'x-dropped': '3' }),
    ];
    // As a client reads them (this server's parser takes client commands only).
    const parsed = frames.map((frame) => {
      const blank = frame.indexOf('\n\n');
      const [command, ...lines] = frame.subarray(0, blank).toString('utf8').split('\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon), line.slice(colon + 1).replaceAll('\\c', ':')];
        }),
      );
      const length = Number(headers['content-length']);
      expect(frame[blank + 2 + length]).toBe(0);
      expect(frame.length).toBe(blank + 2 + length + 1);
      return { command, headers, body: frame.subarray(blank + 2, blank + 2 + length) };
    });
    const messageId = parsed[0]?.headers['message-id'];
    expect(messageId).toMatch(/^[0-9a-f]{8}-\d+$/);
    expect(parsed.map((frame) => frame.headers)).toEqual([
      {
        subscription: 'sub:1',
        'message-id': messageId,
        destination: '/topic/session/a:b',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      {
        subscription: 'sub-2',
        'message-id': messageId,
        destination: '/topic/session/a:b',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-dropped': '3',
      },
    ]);
    expect(parsed.map((frame) => frame.command)).toEqual(['MESSAGE', 'MESSAGE']);
    expect(parsed.map((frame) => frame.body.toString('utf8'))).toEqual([body, body]);
  });

  it('sends subscribers with the same subscription id the same bytes, and each publish its own id', () => {
    const first = prepareMessage('/topic/session/s1', '{"n":1}');
    const head = subscriptionHead('sub-0');
    const once = messageFrame(first, head);
    expect(messageFrame(first, head)).toBe(once);
    expect(messageFrame(first, subscriptionHead('sub-1'))).not.toBe(once);
    // A subscriber's own header makes its own frame, and does not replace the shared one.
    expect(messageFrame(first, head, { 'x-dropped': '1' })).not.toBe(once);
    expect(messageFrame(first, head)).toBe(once);

    const idOf = (frame: Buffer) => /\nmessage-id:([^\n]+)\n/.exec(frame.toString())?.[1];
    const second = messageFrame(prepareMessage('/topic/session/s1', '{"n":1}'), head);
    expect(idOf(second)).toBeDefined();
    expect(idOf(second)).not.toBe(idOf(once));
  });
});
