/** The public pages, with a name for their screenshots. */
export const publicPages = [
  { name: 'home', path: '/' },
  { name: 'pricing', path: '/pricing' },
  { name: 'services', path: '/services' },
  { name: 'about-us', path: '/aboutus' },
  { name: 'privacy-policy', path: '/privacy-policy' },
  { name: 'terms-and-conditions', path: '/terms-and-conditions' },
  { name: 'payment-success', path: '/payment-success' },
  { name: 'updatepassword', path: '/updatepassword' },
  { name: 'update-password', path: '/update-password' },
] as const;
