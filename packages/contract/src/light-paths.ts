/**
 * The addresses of the few public reads a page makes before it needs zod, apart from their
 * schemas (`tokens.ts`, `system.ts`, whose endpoints use them): the boards' reads, which a wall
 * screen's light page makes, and the deployment's client settings, which every page reads after
 * its load and validates only when there is something to use (`error-reporter.ts`).
 */
export const lightPaths = {
  sessionBoard: '/queues/sessions/:sessionId/board',
  queueBoard: '/queues/:queueId/board',
  clientConfig: '/client-config',
} as const;
