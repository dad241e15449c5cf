import { ApiError } from './api-client.ts';

/** 4xx answers will not change on retry; network failures and 5xx get two more tries. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/**
 * How every query retries and how long its answer stays fresh: the app's cache
 * (`query-client.ts`) and the wall-screen boards' own (`display.tsx`).
 */
export const queryDefaults = { retry: shouldRetry, staleTime: 30_000 };
