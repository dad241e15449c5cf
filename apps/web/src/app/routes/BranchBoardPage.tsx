import { useParams } from 'react-router';
import { BoardPage } from '../../features/display/components/BoardPage.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import { DisplayTextsFromI18n } from './DisplayTextsFromI18n.tsx';

/**
 * The public branch board of a queue: every counter today, for a waiting room's screen. Like
 * `DisplayPage`, the server sends its address the boards' own entry (`display.tsx`).
 */
export function Component() {
  const { queueId = '' } = useParams<'queueId'>();
  return (
    <DisplayTextsFromI18n>
      <BoardPage board={{ board: 'queue', queueId }} mainId={MAIN_CONTENT_ID} />
    </DisplayTextsFromI18n>
  );
}
