import { notifications } from '@mantine/notifications';
import {
  MutationCache,
  QueryCache,
  QueryClient,
  QueryClientContext,
  QueryClientProvider,
} from '@tanstack/react-query';
import { createElement, type ReactNode, use } from 'react';
import { ApiError } from './api-client.ts';
import { reportError } from './error-reporter.ts';
import { errorAction } from './error-text.ts';
import { i18n } from './i18n.ts';
import { queryDefaults } from './query-defaults.ts';

/**
 * Spec §8: any API error shows a red notification at the top right, "Something went wrong.
 * Please try again.", with the server's reason as a second line when it gave one, and is
 * reported. Identical errors share an id so a burst of failing queries shows one notice.
 */
/** The notice's text, and a link where the refusal can be resolved (a plan limit: Billing). */
function withAction(text: string, action: { label: string; to: string } | null): ReactNode {
  if (!action) return text;
  // A plain link (a full load): notifications render outside the router.
  return createElement(
    'span',
    null,
    text,
    createElement('br'),
    createElement(
      'a',
      {
        href: action.to,
        style: { fontWeight: 600, textDecoration: 'underline', color: 'inherit' },
      },
      action.label,
    ),
  );
}

export function notifyApiError(error: unknown): void {
  const reason = error instanceof ApiError && error.fromServer ? error.message : undefined;
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  const code = error instanceof ApiError ? error.code : 'unknown';
  const lines = [reason, requestId && i18n.t('errors.reference', { id: requestId })].filter(
    (line): line is string => Boolean(line),
  );
  notifications.show({
    id: `api-error:${code}:${reason ?? ''}`,
    color: 'red',
    title: i18n.t('errors.generic'),
    message: withAction(lines.join('\n'), errorAction(error)),
    withBorder: true,
  });
  reportError(error, { source: 'api' });
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorMeta;
    mutationMeta: ErrorMeta;
  }
}

interface ErrorMeta extends Record<string, unknown> {
  /** The screen shows this query's or mutation's failure itself: no notification as well. */
  errorShownInline?: boolean;
}

/** The spec §8 notice, unless the screen already says what went wrong (then only reported). */
function onApiError(error: unknown, meta: ErrorMeta | undefined): void {
  if (meta?.errorShownInline) reportError(error, { source: 'api' });
  else notifyApiError(error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onApiError(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => onApiError(error, mutation.meta),
    }),
    defaultOptions: {
      queries: queryDefaults,
      mutations: { retry: false },
    },
  });
}

/** The app's one cache (tests make their own with `createQueryClient`). */
export const queryClient = createQueryClient();

/** The app's cache around `children`, where no cache is provided already. */
function QueryClientIfNone({ children }: { children: ReactNode }) {
  if (use(QueryClientContext)) return children;
  return createElement(QueryClientProvider, { client: queryClient }, children);
}

/**
 * `children` with the app's cache: for what the public pages' light start (`public.tsx`, which
 * has no cache) loads on demand, such as the sign-in dialog and a join link's flow. Inside the
 * app (or a test's own cache), the cache already there.
 */
export function withQueryClient(children: ReactNode): ReactNode {
  return createElement(QueryClientIfNone, null, children);
}
