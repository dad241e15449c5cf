/**
 * The addresses of the boards' public reads, apart from their schemas (`tokens.ts`, whose
 * endpoints use them): a wall screen's light page calls them without loading zod.
 */
export const boardPaths = {
  sessionBoard: '/queues/sessions/:sessionId/board',
  queueBoard: '/queues/:queueId/board',
} as const;
