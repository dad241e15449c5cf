import { type ReactNode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { getAuthStatus } from '../lib/auth-session.ts';
import { currentLanguage } from '../lib/language.ts';
import { keepPrerenderedInput } from '../lib/prerendered-input.ts';

/**
 * The start of a page whose markup the build may have prerendered (`prerender.ts`): the app's
 * (`main.tsx`) and the public pages' light start (`public.tsx`). Called at once, so that what the
 * visitor types into the markup before the page is live is kept.
 */
export function prerenderedStart(container: HTMLElement) {
  /** The language of the page's markup when the build prerendered it. */
  const prerendered = container.dataset.prerendered;
  const keptInput = prerendered ? keepPrerenderedInput(container) : undefined;
  // Once the page is live (hydrated or rendered anew), it takes clicks (prerendered.css), and
  // what was typed into its markup meanwhile is entered again.
  const onLive = () => {
    container.removeAttribute('data-prerendered');
    keptInput?.enter();
  };
  return {
    /**
     * Whether the markup is the first render: it is a signed-out English visitor's. In another
     * language, or with a session to restore (bootAuth: the first render shows auth loading),
     * the page is rendered afresh. Asked once the start language's texts are loaded.
     */
    hydrates: () => prerendered === currentLanguage() && getAuthStatus() === 'signed_out',
    /**
     * Renders `page(onLive)` into the container: hydrating the markup when `hydrate`, else in
     * its place. As a transition, the first render works in slices and lets the browser in
     * between them (no long task on a slow phone's main thread).
     */
    render(hydrate: boolean, page: (live: () => void) => ReactNode) {
      const tree = page(onLive);
      startTransition(() => {
        if (hydrate) {
          keptInput?.stopListening();
          hydrateRoot(container, tree);
        } else {
          container.replaceChildren();
          createRoot(container).render(tree);
        }
      });
    },
  };
}
