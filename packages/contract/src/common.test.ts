import { describe, expect, it } from 'vitest';
import { int4ParamSchema, int4Schema, isPlainText, textSchema, urlSchema } from './common.ts';
import { bookSlotInputSchema } from './tokens.ts';

describe('the text rule', () => {
  const name = textSchema(10, { min: 1 });
  const notes = textSchema(20, { multiline: true });

  it('refuses NUL, other control characters and lone surrogates', () => {
    for (const value of [
      'a\u0000b',
      '\u0000',
      'bell\u0007',
      'esc\u001b[31m',
      'del\u007f',
      '\ud800',
      'x\udfffy',
    ]) {
      expect(name.safeParse(value).success, JSON.stringify(value)).toBe(false);
      expect(notes.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('takes line breaks and tabs only in multi-line text', () => {
    expect(notes.parse('two\r\nlines\tand a tab')).toBe('two\r\nlines\tand a tab');
    expect(name.safeParse('two\nlines').success).toBe(false);
    expect(isPlainText('two\nlines')).toBe(false);
    expect(isPlainText('two\nlines', { multiline: true })).toBe(true);
  });

  it('trims, then bounds the length; any other Unicode text is fine', () => {
    expect(name.parse('  Zoë 😀  ')).toBe('Zoë 😀');
    expect(name.safeParse('   ').success).toBe(false);
    expect(name.safeParse('x'.repeat(11)).success).toBe(false);
  });

  it('keeps control characters out of web addresses too', () => {
    expect(urlSchema.safeParse('https://example.test/logo.png').success).toBe(true);
    expect(urlSchema.safeParse('https://example.test/\u0000.png').success).toBe(false);
    expect(urlSchema.safeParse('javascript:alert(1)').success).toBe(false);
  });
});

describe('whole numbers', () => {
  it("stay within PostgreSQL's integer, in bodies and in paths", () => {
    expect(int4Schema.safeParse(2147483647).success).toBe(true);
    expect(int4Schema.safeParse(2147483648).success).toBe(false);
    expect(int4Schema.safeParse(-2147483649).success).toBe(false);
    expect(int4ParamSchema.safeParse('2147483648').success).toBe(false);
    expect(int4ParamSchema.parse('12')).toBe(12);
  });

  it('bound a booking’s slot number (2147483648 was a 500)', () => {
    const booking = { serviceId: crypto.randomUUID(), slotNo: 2147483648 };
    expect(bookSlotInputSchema.safeParse(booking).success).toBe(false);
  });
});
