import type { BoardPath } from '@upnext/contract/routes';
import classes from './BoardPage.module.css';
import { BranchBoardScreen } from './BranchBoardScreen.tsx';
import { SessionBoardScreen } from './SessionBoardScreen.tsx';

/**
 * A board as a page of its own: the light entry (`display.tsx`) and the app's routes
 * (`app/routes/DisplayPage.tsx`, `BranchBoardPage.tsx`) both render this. `mainId`: the app's
 * skip link's target.
 */
export function BoardPage({ board, mainId }: { board: BoardPath; mainId?: string }) {
  return (
    <main id={mainId} tabIndex={mainId ? -1 : undefined} className={classes.main}>
      {board.board === 'queue' ? (
        <BranchBoardScreen queueId={board.queueId} />
      ) : (
        <SessionBoardScreen sessionId={board.sessionId} />
      )}
    </main>
  );
}
