/**
 * The public pages, with a name for their screenshots. `/payment-success` is not one of them:
 * it shows a payment's real outcome (payments.spec.ts covers it, axe included); only its
 * empty state is checked here, by `otherPublicPages`.
 */
export const publicPages = [
  { name: 'home', path: '/' },
  { name: 'pricing', path: '/pricing' },
  { name: 'services', path: '/services' },
  { name: 'about-us', path: '/aboutus' },
  { name: 'privacy-policy', path: '/privacy-policy' },
  { name: 'terms-and-conditions', path: '/terms-and-conditions' },
  { name: 'updatepassword', path: '/updatepassword' },
  { name: 'update-password', path: '/update-password' },
] as const;

/** Public routes that are not content pages, checked for accessibility and screenshots only. */
export const otherPublicPages = [
  { name: 'payment-success-empty', path: '/payment-success' },
] as const;
