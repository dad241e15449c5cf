import { describe, expect, it } from 'vitest';
import { escapeHeader, StompParser, StompProtocolError, serializeFrame } from './stomp-frame.ts';

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
});
