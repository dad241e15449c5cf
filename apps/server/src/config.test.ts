import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('runs with no variables at all: port 3000, ./data, embedded database', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(resolve('data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.corsOrigins).toEqual([]);
    expect(config.seedDemoData).toBe(true);
  });

  it('takes PORT, DATA_DIR, DATABASE_URL, PUBLIC_URL and CORS_ORIGINS', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/var/lib/upnext',
      DATABASE_URL: 'postgres://app@db:5432/upnext',
      PUBLIC_URL: 'https://queue.example.com/',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
      SEED_DEMO_DATA: 'false',
    });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/var/lib/upnext');
    expect(config.databaseUrl).toBe('postgres://app@db:5432/upnext');
    expect(config.publicUrl).toBe('https://queue.example.com');
    expect(config.corsOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.seedDemoData).toBe(false);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });

  it.each([
    ['PORT', 'abc', /PORT: must be a whole number \(got "abc"\)/],
    ['PORT', '70000', /PORT: must be between 0 and 65535/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: must be a postgres/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL: must be one of/],
    ['PUBLIC_URL', 'not a url', /PUBLIC_URL: must be an absolute URL/],
    ['CORS_ORIGINS', 'https://a.example.com/path', /CORS_ORIGINS: .* is not an origin/],
    ['SEED_DEMO_DATA', 'maybe', /SEED_DEMO_DATA: must be true or false/],
  ])('names the bad variable %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*LOG_LEVEL/);
  });
});
