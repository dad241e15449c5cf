import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.ts';

describe('log redaction', () => {
  it('hides credentials carried in query strings', () => {
    expect(redactUrl('/wss?token=eyJabc&x=1')).toBe('/wss?token=%5Bredacted%5D&x=1');
    expect(redactUrl('/auth/v1/verify?type=signup&token_hash=abc')).not.toContain('abc');
    expect(redactUrl('/login?code=secret-code')).not.toContain('secret-code');
  });

  it('leaves URLs without secrets alone', () => {
    expect(redactUrl('/api/queues?page=2')).toBe('/api/queues?page=2');
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});
