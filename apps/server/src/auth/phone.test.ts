import { describe, expect, it } from 'vitest';
import { AuthError } from './errors.ts';
import { assertSmsChannel, normalisePhone, parsePhone, renderAuthSms } from './phone.ts';

describe('phone numbers', () => {
  it('normalises every usual spelling to the E.164 digits GoTrue stores', () => {
    for (const raw of [
      '+49 151 1234567',
      '49-151-1234567',
      ' +49 (151) 123.4567 ',
      '491511234567',
    ]) {
      expect(parsePhone(raw)).toBe('491511234567');
    }
    expect(normalisePhone('+1 415 555 2671')).toBe('14155552671');
  });

  it('refuses what is not an E.164 number, with GoTrue’s message', () => {
    for (const raw of [
      '',
      '12345',
      '+0491511234567',
      '+49 151 12345678901234',
      'abc',
      '+49 151 1234x67',
    ]) {
      const error = (() => {
        try {
          parsePhone(raw);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe('validation_failed');
    }
  });

  it('accepts the sms channel (or none) and refuses whatsapp and anything else', () => {
    expect(() => assertSmsChannel(undefined)).not.toThrow();
    expect(() => assertSmsChannel('sms')).not.toThrow();
    expect(() => assertSmsChannel('whatsapp')).toThrow(/not supported/);
    expect(() => assertSmsChannel('pigeon')).toThrow(/Invalid channel/);
  });
});

describe('SMS texts', () => {
  it('puts the code first, says how long it lasts and ends with the WebOTP line', () => {
    const text = renderAuthSms('code', {
      siteUrl: 'https://queue.example.com/app',
      code: '123456',
      validSeconds: 60,
    });
    expect(text).toBe(
      'UpNext: 123456 is your sign-in code. It expires in 60 seconds. Never share it.\n\n@queue.example.com #123456',
    );
    expect(
      renderAuthSms('phone_change', { siteUrl: 'https://a.example', code: '1', validSeconds: 600 }),
    ).toContain('It expires in 10 minutes.');
    // One SMS segment (160 GSM-7 characters) for a 6-digit code and a typical host.
    expect(text.length).toBeLessThanOrEqual(160);
    const notice = renderAuthSms('existing_account', { siteUrl: 'https://a.example' });
    expect(notice).not.toMatch(/\d{6}/);
  });

  it('is written in the language of the page that asked, keeping the WebOTP line', () => {
    const input = { siteUrl: 'https://queue.example.com', code: '123456', validSeconds: 300 };
    expect(renderAuthSms('code', input, 'fr')).toBe(
      'UpNext : 123456 est votre code de connexion. Il expire dans 5 minutes. Ne le communiquez jamais.\n\n@queue.example.com #123456',
    );
    const arabic = renderAuthSms('reauthentication', input, 'ar');
    expect(arabic).toContain('رمز تأكيد هويتك 123456');
    expect(arabic.endsWith('\n\n@queue.example.com #123456')).toBe(true);
  });
});
