import type { BoardCall } from '@upnext/contract/tokens';
import { formatTime } from '../../../entities/token/time.ts';
import { useTranslation } from '../texts.ts';
import classes from './boards.module.css';

/** The calls before the current one, newest first: ticket, counter and time (Qmatic-style). */
export function RecentCalls({ calls }: { calls: readonly BoardCall[] }) {
  const { t } = useTranslation('display');
  return (
    <section className={classes.recent} aria-labelledby="board-recent-title">
      <h2 id="board-recent-title" className={classes.recentTitle}>
        {t('recent.title')}
      </h2>
      {calls.length === 0 ? (
        <p className={classes.recentNone}>{t('recent.none')}</p>
      ) : (
        <table className={classes.calls}>
          <thead>
            <tr>
              <th scope="col">{t('recent.ticket')}</th>
              <th scope="col">{t('recent.counter')}</th>
              <th scope="col">{t('recent.time')}</th>
            </tr>
          </thead>
          <tbody>
            {calls.map((call) => (
              <tr key={`${call.label}-${call.calledAt}`}>
                <td className={classes.callLabel}>{call.label}</td>
                <td className={classes.callCounter}>{call.counter ?? '—'}</td>
                <td className={classes.callTime}>{formatTime(call.calledAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
