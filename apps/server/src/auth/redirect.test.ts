import { describe, expect, it } from 'vitest';
import { isAllowedRedirect, resolveRedirect } from './redirect.ts';

const policy = {
  siteUrl: 'https://site.com',
  allowList: [
    'https://*.site.com/**',
    'com.upnext.app://login-callback',
    'http://localhost:5173/**',
  ],
};

describe('redirect_to allow-list (SECURITY.md §8)', () => {
  it.each([
    'https://site.com',
    'https://site.com/',
    'https://site.com/login?redirect=/admin#top',
    'https://app.site.com/welcome',
    'https://app.site.com/a/b/c?x=1',
    'com.upnext.app://login-callback',
    'http://localhost:5173/login',
  ])('accepts %s', (candidate) => {
    expect(isAllowedRedirect(candidate, policy)).toBe(true);
  });

  it.each([
    ['another site', 'https://evil.com'],
    ['a look-alike host', 'https://site.com.evil.com/'],
    ['a suffix host', 'https://evilsite.com/'],
    ['a protocol-relative URL', '//evil.com'],
    ['a relative path', '/admin'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: with an allowed-looking tail', 'javascript://site.com/%0aalert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['user-info before the real host', 'https://site.com@evil.com/'],
    ['user-info with a password', 'https://site.com:pw@evil.com/'],
    ['user-info on an allowed host', 'https://user@site.com/'],
    ['a backslash trick', 'https://evil.com\\@site.com/'],
    ['a backslash path', 'https:\\\\evil.com'],
    ['another scheme on the site host', 'http://site.com/'],
    ['another port on the site host', 'https://site.com:8443/'],
    ['* crossing a dot', 'https://a.b.site.com.evil.com/x'],
    ['* crossing into another host', 'https://evil.com/.site.com/x'],
    ['a decimal-integer IP host', 'http://2130706433/'],
    ['a hex IP host', 'http://0x7f.1/'],
    ['a non-loopback IP', 'https://10.0.0.1/'],
    ['whitespace', 'https://site.com /x'],
    ['a newline', 'https://site.com/\nLocation: https://evil.com'],
    ['garbage', 'not a url'],
  ])('refuses %s', (_name, candidate) => {
    expect(isAllowedRedirect(candidate, policy)).toBe(false);
  });

  it('allows any port on loopback when the site is on loopback', () => {
    const local = { siteUrl: 'http://localhost:3000', allowList: [] };
    expect(isAllowedRedirect('http://localhost:5173/cb', local)).toBe(true);
    expect(isAllowedRedirect('http://localhost.evil.com:5173/cb', local)).toBe(false);
  });

  it('lets ** cross dots and slashes but * only within a label', () => {
    const globs = { siteUrl: 'https://site.com', allowList: ['https://**.example.org/*'] };
    expect(isAllowedRedirect('https://a.b.example.org/cb', globs)).toBe(true);
    expect(isAllowedRedirect('https://a.b.example.org/cb/deeper', globs)).toBe(false);
  });

  it('silently falls back to the site URL; takes an allowed Referer when no redirect_to', () => {
    expect(resolveRedirect(policy, 'https://evil.com')).toBe('https://site.com');
    expect(resolveRedirect(policy, undefined)).toBe('https://site.com');
    expect(resolveRedirect(policy, 'https://app.site.com/x')).toBe('https://app.site.com/x');
    expect(resolveRedirect(policy, undefined, 'https://app.site.com/from')).toBe(
      'https://app.site.com/from',
    );
    expect(resolveRedirect(policy, undefined, 'https://evil.com/from')).toBe('https://site.com');
  });
});
