import { describe, expect, it } from 'vitest';
import { renderAuthEmail } from './templates.ts';

describe('auth email templates', () => {
  const link =
    'https://upnext.test/auth/v1/verify?token=abc&type=signup&redirect_to=https%3A%2F%2Fupnext.test';

  it('brands the mail and carries the link and the code in text and HTML', () => {
    const mail = renderAuthEmail('signup', {
      to: 'ada@example.com',
      siteUrl: 'https://upnext.test',
      confirmationUrl: link,
      token: '123456',
      validMinutes: 60,
    });
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Confirm your UpNext account');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('Or enter this code: 123456');
    expect(mail.text).toContain('valid for 60 minutes');
    expect(mail.html).toContain('UpNext');
    expect(mail.html).toContain(link.replaceAll('&', '&amp;'));
    expect(mail.html).toContain('123456');
  });

  it('escapes what it puts into HTML', () => {
    const mail = renderAuthEmail('email_change_current', {
      to: 'ada@example.com',
      siteUrl: 'https://upnext.test',
      confirmationUrl: link,
      token: '123456',
      newEmail: '"><script>alert(1)</script>@evil.test',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });

  it('sends notices without a code', () => {
    const mail = renderAuthEmail('no_account', {
      to: 'x@example.com',
      siteUrl: 'https://upnext.test',
    });
    expect(mail.text).not.toMatch(/code/i);
    expect(mail.text).toContain('https://upnext.test');
  });
});
