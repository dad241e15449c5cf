/**
 * Every path the single-page app renders (spec §2 plus PRODUCT.md's extra screens).
 * The web router registers exactly these; the server answers any other path with the
 * app's not-found page and a real 404 status.
 */
export const spaRoutes = {
  home: '/',
  pricing: '/pricing',
  services: '/services',
  aboutUs: '/aboutus',
  privacyPolicy: '/privacy-policy',
  termsAndConditions: '/terms-and-conditions',
  paymentSuccess: '/payment-success',
  /** The built-in sandbox card checkout (the embedded default payment provider; never in production). */
  sandboxCheckout: '/sandbox/checkout/:checkoutId',
  updatePassword: '/updatepassword',
  updatePasswordAlias: '/update-password',
  login: '/login',
  join: '/join',
  display: '/display/:sessionId',
  /** A token's status link (visits.ts): its holder follows it there without signing in. */
  visit: '/visit/:key',
  /** A branch board: every session of a queue today (its counters) on one wall screen. */
  displayQueue: '/display/queue/:queueId',
  devMailbox: '/dev/mailbox',
  admin: '/admin',
  adminQueues: '/admin/queues',
  adminQueueSessions: '/admin/queue-sessions',
  adminMySessions: '/admin/my-sessions',
  adminLiveSession: '/admin/live-sessions/:subQueueId/:date/:sessionId',
  adminSessionControl: '/admin/session-control',
  adminSessionTokens: '/admin/session-tokens/:sessionId',
  adminScheduleSession: '/admin/schedule-session/:queueId',
  adminPaymentSuccess: '/admin/payment-success',
  adminMeeting: '/admin/meeting/:queueId/:sessionId/:meetingId',
  /** A reception tablet where walk-ins take a number (staff open it, signed in). */
  adminKiosk: '/admin/kiosk/:sessionId',
  /** A company's reports (issue 16): figures over a period, charts and CSV. */
  adminReports: '/admin/reports',
  adminCompany: '/admin/company',
  adminAccount: '/admin/account',
} as const;

export type SpaRouteName = keyof typeof spaRoutes;

/**
 * The join link's query parameter: a queue's join code. Not `code`, which auth clients read
 * as an OAuth/PKCE code; `/join?code=` links from before still open the queue.
 */
export const joinCodeParam = 'queue';
export const legacyJoinCodeParam = 'code';

/** The path a visitor opens (or a QR code carries) to join the queue with `joinCode`. */
export function joinPath(joinCode: string): string {
  return `${spaRoutes.join}?${joinCodeParam}=${encodeURIComponent(joinCode)}`;
}

/** A token's status link page; the key is the link's credential. */
export function visitPath(key: string): string {
  return buildPath(spaRoutes.visit, { key });
}

/** The company settings' Billing tab: where plans are bought, changed and cancelled. */
export const companyBillingPath = `${spaRoutes.adminCompany}?tab=billing`;

/** Routes under `/admin` need a signed-in user, except the payment-success page (spec §2). */
export function requiresSignIn(pattern: string): boolean {
  return pattern.startsWith('/admin') && pattern !== spaRoutes.adminPaymentSuccess;
}

/** A route pattern as a regular expression, its `:name` placeholders captured in order. */
function compile(pattern: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { regex: new RegExp(`^${source}/?$`), names };
}

const compiled = Object.values(spaRoutes).map((pattern) => compile(pattern).regex);

/**
 * The placeholders' values when `pathname` is a path of `pattern` (decoded), else null:
 * `matchSpaPath('/display/:sessionId', '/display/abc')` is `{ sessionId: 'abc' }`.
 */
export function matchSpaPath(pattern: string, pathname: string): Record<string, string> | null {
  const { regex, names } = compile(pattern);
  const found = regex.exec(pathname);
  if (!found) return null;
  try {
    return Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]),
    );
  } catch {
    return null; // A malformed escape (`%E0%A4%A`) names no id.
  }
}

export type BoardPath =
  | { board: 'queue'; queueId: string }
  | { board: 'session'; sessionId: string };

/**
 * The wall-screen boards' paths: the web app serves them from a light entry of its own
 * (`apps/web/display.html`), which the server sends for these paths (`spa.ts`).
 */
export function matchBoardPath(pathname: string): BoardPath | null {
  // `/display/queue/x` before `/display/:sessionId`, which would not match it anyway (two parts).
  const queue = matchSpaPath(spaRoutes.displayQueue, pathname);
  if (queue) return { board: 'queue', queueId: queue.queueId ?? '' };
  const session = matchSpaPath(spaRoutes.display, pathname);
  return session ? { board: 'session', sessionId: session.sessionId ?? '' } : null;
}

/** True when `pathname` (no query, no hash) is a screen the app knows. */
export function isKnownSpaPath(pathname: string): boolean {
  return compiled.some((re) => re.test(pathname));
}

/** Replace `:name` placeholders with URL-encoded values (spec §7). */
export function buildPath(pattern: string, params: Record<string, string | number> = {}): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path variable "${name}" for ${pattern}`);
    return encodeURIComponent(String(value));
  });
}
