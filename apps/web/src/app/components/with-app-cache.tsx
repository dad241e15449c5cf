import type { ComponentType } from 'react';

/**
 * For `lazy`: a component loaded on demand, with the app's query cache around it where there is
 * none (the public pages' light start has none until such a part loads; inside the app, the one
 * already there). The cache's module loads with it, so a page that never needs it never has it.
 */
export function withAppCache<P extends object>(load: () => Promise<ComponentType<P>>) {
  return () =>
    Promise.all([load(), import('../../lib/query-client.ts')]).then(
      ([Component, { withQueryClient }]) => ({
        default: (props: P) => withQueryClient(<Component {...props} />),
      }),
    );
}
