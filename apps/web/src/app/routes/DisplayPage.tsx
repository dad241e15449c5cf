import { useParams } from 'react-router';
import { SessionBoardScreen } from '../../features/display/components/SessionBoardScreen.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import classes from './DisplayPage.module.css';

/** The public board of one session, for a waiting room's screen. */
export function Component() {
  const { sessionId = '' } = useParams<'sessionId'>();
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
      <SessionBoardScreen sessionId={sessionId} />
    </main>
  );
}
