import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

/** Where auth-js keeps the session in the browser (apps/web/src/lib/auth-client.ts). */
const AUTH_STORAGE_KEY = 'upnext-auth';

export type ApiSession = { access_token: string; user: { id: string; email: string } };

/** Sign up through /auth/v1 and confirm with the code from the developer mailbox. */
export async function signUpViaApi(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<ApiSession> {
  const signup = await request.post('/auth/v1/signup', { data: { email, password } });
  expect(signup.ok(), await signup.text()).toBe(true);
  let code: string | undefined;
  await expect
    .poll(async () => {
      const mailbox = await request.get(`/auth/v1/dev/mailbox?to=${encodeURIComponent(email)}`);
      const { messages } = (await mailbox.json()) as { messages: { text: string }[] };
      code = /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  const verify = await request.post('/auth/v1/verify', {
    data: { type: 'signup', email, token: code },
  });
  expect(verify.ok(), await verify.text()).toBe(true);
  return (await verify.json()) as ApiSession;
}

/** Put the session where auth-js reads it on start, as a signed-in browser would have it. */
export async function useSession(page: Page, session: unknown): Promise<void> {
  await page.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    [AUTH_STORAGE_KEY, JSON.stringify(session)] as const,
  );
}

/** A queue API call as the given user; answers the `data` of the envelope. */
export async function api<T>(
  request: APIRequestContext,
  session: ApiSession,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(`/api${path}`, {
    method,
    headers: { authorization: `Bearer ${session.access_token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

/** A new queue of a company (`POST /company/queues`, any of its fields), with its join code. */
export function createQueue(
  request: APIRequestContext,
  staff: ApiSession,
  fields: { companyId: string; name: string } & Record<string, unknown>,
): Promise<{ id: string; joinCode: string }> {
  return api<{ id: string; joinCode: string }>(request, staff, 'POST', '/company/queues', fields);
}

/**
 * A new company of the given owner, on a paid plan bought the way an owner buys one: the plan
 * checkout, paid on the sandbox with its success card, settled by the signed webhook. Free
 * allows one queue, two staff and no video or online payments (packages/contract/src/plans.ts).
 */
export async function createCompanyOnPlan(
  request: APIRequestContext,
  owner: ApiSession,
  fields: { name: string; timezone: string },
  plan: 'pro' | 'business' = 'business',
): Promise<{ id: string }> {
  const company = await api<{ id: string }>(request, owner, 'POST', '/company', fields);
  const { paymentId, checkoutUrl } = await api<{ paymentId: string; checkoutUrl: string }>(
    request,
    owner,
    'POST',
    '/payment-gateway/payment',
    { plan, companyId: company.id },
  );
  const checkoutId = new URL(checkoutUrl).pathname.split('/').at(-1) as string;
  const paid = await request.post(`/api/payment-gateway/sandbox/checkouts/${checkoutId}/pay`, {
    data: { number: '4242424242424242', expiry: '12/40', cvc: '123', name: 'Owner' },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  await expect
    .poll(
      async () =>
        (await api<{ status: string }>(request, owner, 'GET', `/payments/${paymentId}`)).status,
    )
    .toBe('paid');
  return company;
}

/** A journey's minutes: one that schedules "today" this close to midnight starts tomorrow. */
const DAY_END_MARGIN_MS = 5 * 60_000;

/**
 * Today's date in UTC, for a session from 00:00 to 23:59 that a journey then uses: in the day's
 * last minutes it first waits for the next day (the test's time limit grows by the wait), so
 * the session does not close under the journey (a CI run across midnight found this).
 */
export async function todayAwayFromMidnight(): Promise<string> {
  const now = Date.now();
  const untilMidnight = 86_400_000 - (now % 86_400_000);
  if (untilMidnight < DAY_END_MARGIN_MS) {
    test.setTimeout(test.info().timeout + untilMidnight);
    await new Promise((resolve) => setTimeout(resolve, untilMidnight + 1000));
  }
  return new Date().toISOString().slice(0, 10);
}

/** Today's all-day session of the queue (its company in UTC), opened: ready for tokens. */
export async function openSessionToday(
  request: APIRequestContext,
  staff: ApiSession,
  queueId: string,
): Promise<{ sessionId: string; today: string }> {
  const today = await todayAwayFromMidnight();
  const scheduled = await api<{ sessions: Array<{ id: string }> }>(
    request,
    staff,
    'POST',
    '/queues/sessions/schedule',
    { queueId, date: today, startTime: '00:00', endTime: '23:59', capacity: 50 },
  );
  const sessionId = scheduled.sessions[0]?.id as string;
  await api(request, staff, 'POST', '/queues/sessions/status', { sessionId, status: 'open' });
  return { sessionId, today };
}
