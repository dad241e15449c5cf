import { useParams } from 'react-router';
import { BranchBoardScreen } from '../../features/display/components/BranchBoardScreen.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import classes from './DisplayPage.module.css';

/** The public branch board of a queue: every counter today, for a waiting room's screen. */
export function Component() {
  const { queueId = '' } = useParams<'queueId'>();
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
      <BranchBoardScreen queueId={queueId} />
    </main>
  );
}
