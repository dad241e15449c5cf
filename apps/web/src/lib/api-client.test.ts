import { requestEndpoints } from '@upnext/contract/requests';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api-client.ts';
import { setAuthSession } from './auth-session.ts';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function lastRequest(): { url: string; init: RequestInit; headers: Headers } {
  const [url, init = {}] = fetchMock.mock.calls.at(-1) ?? [];
  return { url: String(url), init, headers: new Headers(init.headers) };
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockResolvedValue(jsonResponse(200, { data: null }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  setAuthSession(null);
});

/** Any endpoint will do for what every call shares: headers, envelopes, failures. */
const listRequests = (signal?: AbortSignal) =>
  api.call(requestEndpoints.listJoinRequests, signal ? { signal } : {});

describe('api client', () => {
  it('sends no Authorization or time zone header without a token', async () => {
    await listRequests();
    const { headers } = lastRequest();
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.has('X-user-timezone')).toBe(false);
  });

  it('sends the bearer token and the browser time zone when signed in', async () => {
    setAuthSession({ accessToken: 'token-123', user: { id: 'u1' } });
    await listRequests();
    const { headers } = lastRequest();
    expect(headers.get('Authorization')).toBe('Bearer token-123');
    expect(headers.get('X-user-timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('returns the data of the success envelope', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { data: [{ id: 'q1', name: 'Counter' }] }));
    await expect(listRequests()).resolves.toEqual([{ id: 'q1', name: 'Counter' }]);
  });

  it('throws an ApiError carrying the error envelope', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(409, {
        error: { code: 'slot_full', message: 'This slot is already full.', requestId: 'req-7' },
      }),
    );
    const error = await listRequests().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'slot_full',
      message: 'This slot is already full.',
      requestId: 'req-7',
      fromServer: true,
    });
  });

  it('throws an http_error ApiError when a gateway answers without an envelope', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await listRequests().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'http_error', fromServer: false });
  });

  it('turns a network failure into a network_error ApiError', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await listRequests().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'network_error', fromServer: false });
  });

  it('lets a cancelled request reject with the abort error itself', async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('aborted', 'AbortError');
    fetchMock.mockRejectedValue(abort);
    await expect(listRequests(controller.signal)).rejects.toBe(abort);
  });
});

describe('api.call through the endpoint table', () => {
  it("uses the endpoint's method and path, URL-encodes its params and sends its body", async () => {
    await api.call(requestEndpoints.decideJoinRequest, {
      params: { requestId: 'a b/c?' },
      body: { status: 'approved' },
    });
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/queues/requests/a%20b%2Fc%3F');
    expect(init.method).toBe('PATCH');
    expect(init.body).toBe('{"status":"approved"}');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('puts the query in the query string, leaving out unset values', async () => {
    await api.call(requestEndpoints.listJoinRequests, {
      query: { status: 'pending', queueId: undefined },
    });
    const { url, init } = lastRequest();
    expect(url).toBe('/api/queues/requests?status=pending');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  it('resolves with the typed data and rejects with the error envelope', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { data: { ok: true } }));
    const data = await api.call(requestEndpoints.withdrawJoinRequest, {
      params: { requestId: 'r1' },
    });
    const ok: true = data.ok;
    expect(ok).toBe(true);

    fetchMock.mockResolvedValueOnce(
      jsonResponse(409, { error: { code: 'join_request_not_needed', message: 'Public queue.' } }),
    );
    const error = await api
      .call(requestEndpoints.createJoinRequest, { body: { queueId: 'q1' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, code: 'join_request_not_needed' });
  });

  it('refuses, at compile time, input the endpoint does not declare', () => {
    // Only type-checked: each line is a mistake tsc must reject.
    const mistakes = () => [
      // @ts-expect-error the path variable is required
      api.call(requestEndpoints.withdrawJoinRequest, {}),
      api.call(requestEndpoints.decideJoinRequest, {
        params: { requestId: 'r1' },
        // @ts-expect-error a body of the wrong shape
        body: { status: 'maybe' },
      }),
      // @ts-expect-error a GET has no body
      api.call(requestEndpoints.listJoinRequests, { body: { status: 'pending' } }),
    ];
    expect(typeof mistakes).toBe('function');
  });
});
