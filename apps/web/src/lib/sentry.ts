// The one entry to Sentry: imported on demand, so its chunk is named `sentry-*.js` and a
// deployment without a DSN never downloads it.
export { captureException, init } from '@sentry/react';
