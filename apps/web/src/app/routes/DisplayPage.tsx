import { useParams } from 'react-router';
import { BoardPage } from '../../features/display/components/BoardPage.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import { DisplayTextsFromI18n } from './DisplayTextsFromI18n.tsx';

/**
 * The public board of one session, for a waiting room's screen. The server sends its address
 * the boards' own light entry (`display.tsx`); the router still shows it for a navigation
 * inside the app.
 */
export function Component() {
  const { sessionId = '' } = useParams<'sessionId'>();
  return (
    <DisplayTextsFromI18n>
      <BoardPage board={{ board: 'session', sessionId }} mainId={MAIN_CONTENT_ID} />
    </DisplayTextsFromI18n>
  );
}
