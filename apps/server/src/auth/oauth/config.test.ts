import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';

describe('OAuth provider configuration', () => {
  it('enables nothing by default, and manual linking is off (GoTrue default)', () => {
    const { auth } = loadConfig({});
    expect(auth.oauthProviders).toEqual([]);
    expect(auth.manualLinkingEnabled).toBe(false);
  });

  it('takes the generic OIDC provider and the Google and GitHub presets', () => {
    const { auth } = loadConfig({
      EXTERNAL_OIDC_ISSUER: 'https://login.example.com/realms/staff/',
      EXTERNAL_OIDC_CLIENT_ID: 'upnext',
      EXTERNAL_OIDC_SECRET: 'oidc-secret',
      EXTERNAL_OIDC_NAME: 'Staff login',
      EXTERNAL_GOOGLE_CLIENT_ID: 'g-id',
      EXTERNAL_GOOGLE_SECRET: 'g-secret',
      EXTERNAL_GITHUB_CLIENT_ID: 'gh-id',
      EXTERNAL_GITHUB_SECRET: 'gh-secret',
      SECURITY_MANUAL_LINKING_ENABLED: 'true',
    });
    expect(auth.oauthProviders).toEqual([
      {
        kind: 'oidc',
        name: 'oidc',
        label: 'Staff login',
        issuer: 'https://login.example.com/realms/staff/',
        clientId: 'upnext',
        secret: 'oidc-secret',
      },
      {
        kind: 'oidc',
        name: 'google',
        label: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: 'g-id',
        secret: 'g-secret',
      },
      {
        kind: 'github',
        name: 'github',
        label: 'GitHub',
        webUrl: 'https://github.com',
        apiUrl: 'https://api.github.com',
        clientId: 'gh-id',
        secret: 'gh-secret',
      },
    ]);
    expect(auth.manualLinkingEnabled).toBe(true);
  });

  it('names the missing half of a provider', () => {
    expect(() => loadConfig({ EXTERNAL_GITHUB_CLIENT_ID: 'x' })).toThrow(
      /EXTERNAL_GITHUB_SECRET: must be set/,
    );
    expect(() => loadConfig({ EXTERNAL_GOOGLE_SECRET: 'x' })).toThrow(
      /EXTERNAL_GOOGLE_CLIENT_ID: must be set/,
    );
    expect(() => loadConfig({ EXTERNAL_OIDC_CLIENT_ID: 'x', EXTERNAL_OIDC_SECRET: 'y' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ EXTERNAL_OIDC_CLIENT_ID: 'x', EXTERNAL_OIDC_SECRET: 'y' })).toThrow(
      /EXTERNAL_OIDC_ISSUER/,
    );
    expect(() => loadConfig({ EXTERNAL_OIDC_ISSUER: 'not a url' })).toThrow(
      /EXTERNAL_OIDC_ISSUER: must be an absolute URL/,
    );
  });
});
