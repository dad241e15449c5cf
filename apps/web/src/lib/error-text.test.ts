import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { errorAction, errorText } from './error-text.ts';

const refusal = new ApiError({
  status: 409,
  code: 'session_full',
  message: 'The session is full.',
  fromServer: true,
});

describe('errorText', () => {
  it("prefers a feature's own wording for a code it words", () => {
    expect(
      errorText(refusal, (code) => (code === 'session_full' ? 'Try another.' : undefined)),
    ).toBe('Try another.');
  });

  it("otherwise tells the server's reason", () => {
    expect(errorText(refusal)).toBe('The session is full.');
    expect(errorText(refusal, () => undefined)).toBe('The session is full.');
  });

  it('says the server could not be reached on a network failure', () => {
    const offline = new ApiError({
      status: 0,
      code: 'network_error',
      message: 'fetch failed',
      fromServer: false,
    });
    expect(errorText(offline)).toMatch(/could not be reached/);
  });

  it('falls back to the generic line, never an internal message', () => {
    const gateway = new ApiError({
      status: 502,
      code: 'http_error',
      message: 'Request failed with status 502',
      fromServer: false,
    });
    expect(errorText(gateway)).toBe('Something went wrong. Please try again.');
    expect(errorText(new Error('TypeError: x is undefined'))).toBe(
      'Something went wrong. Please try again.',
    );
  });
});

describe('errorAction', () => {
  it('leads a plan limit to Billing, and nothing else anywhere', () => {
    const limit = new ApiError({
      status: 409,
      code: 'plan_limit_reached',
      message: 'The Free plan includes 1 queue. Upgrade to add more.',
      fromServer: true,
    });
    expect(errorText(limit)).toBe('The Free plan includes 1 queue. Upgrade to add more.');
    expect(errorAction(limit)).toEqual({
      label: 'Upgrade your plan',
      to: '/admin/company?tab=billing',
    });
    expect(errorAction(refusal)).toBeNull();
    expect(errorAction(new Error('boom'))).toBeNull();
  });
});
