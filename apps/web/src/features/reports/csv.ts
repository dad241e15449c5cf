import type { Report } from '@upnext/contract/reports';
import { toCsv } from '../../lib/csv.ts';

/** One line per day, week or month, seconds as numbers (a spreadsheet formats them). */
export function periodsToCsv(report: Report): string {
  const header = [
    'period start',
    'visits',
    'served',
    'no-shows',
    'cancelled',
    'walk-ins',
    'bookings',
    'wait average s',
    'wait median s',
    'wait p90 s',
    'service average s',
    'service median s',
    'service p90 s',
    ...(report.video ? ['consultations held', 'consultations unanswered'] : []),
  ];
  return toCsv([
    header,
    ...report.periods.map((p) => [
      p.start,
      p.visits,
      p.served,
      p.noShows,
      p.cancelled,
      p.walkIns,
      p.bookings,
      p.waitSeconds.average,
      p.waitSeconds.median,
      p.waitSeconds.p90,
      p.serviceSeconds.average,
      p.serviceSeconds.median,
      p.serviceSeconds.p90,
      ...(report.video ? [p.consultationsHeld, p.consultationsUnanswered] : []),
    ]),
  ]);
}

/** The busiest hours: one line per weekday (1 Monday ... 7 Sunday) and hour with visits. */
export function hoursToCsv(report: Report): string {
  return toCsv([
    ['weekday', 'hour', 'visits'],
    ...report.busiestHours.map((cell) => [cell.weekday, cell.hour, cell.visits]),
  ]);
}
