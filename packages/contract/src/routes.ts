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

const compiled = Object.values(spaRoutes).map((pattern) => {
  const source = pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
});

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
