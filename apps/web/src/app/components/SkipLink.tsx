import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './SkipLink.module.css';

/** Every layout gives its <main> this id and tabIndex={-1} so the skip link can focus it. */
export const MAIN_CONTENT_ID = 'main-content';

/** First Tab stop of every page; hidden until focused. */
export function SkipLink() {
  const { t } = useTranslation();
  // Focus main directly rather than following the hash: the router would treat the hash
  // change as a navigation, and the browser does not always move focus on its own.
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView();
  };
  return (
    <a className={classes.skipLink} href={`#${MAIN_CONTENT_ID}`} onClick={skip}>
      {t('skipLink')}
    </a>
  );
}
