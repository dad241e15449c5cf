import { useEffect } from 'react';

/** Sets `document.title` while the page is shown. Pass an already translated title. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
