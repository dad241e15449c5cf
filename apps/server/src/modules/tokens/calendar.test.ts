import { describe, expect, it } from 'vitest';
import { bookingCalendar } from './calendar.ts';

const event = {
  uid: 'token-1@upnext',
  start: new Date('2026-03-29T08:30:00Z'),
  end: new Date('2026-03-29T08:50:00Z'),
  summary: 'Blood test, Harbourview; room 1',
  description: 'Booking B-007.\nBring your form.',
  location: 'Harbourview Health Centre',
  url: 'http://localhost:3000/admin/my-sessions',
  stamp: new Date('2026-03-20T10:00:00Z'),
};

describe('bookingCalendar', () => {
  it('writes a confirmed VEVENT in UTC with CRLF lines and escaped text', () => {
    const ics = bookingCalendar(event);
    expect(ics.endsWith('\r\n')).toBe(true);
    const lines = ics.split('\r\n');
    expect(lines).toContain('DTSTART:20260329T083000Z');
    expect(lines).toContain('DTEND:20260329T085000Z');
    expect(lines).toContain('SUMMARY:Blood test\\, Harbourview\\; room 1');
    expect(lines).toContain('DESCRIPTION:Booking B-007.\\nBring your form.');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const ics = bookingCalendar({ ...event, description: 'é'.repeat(100) });
    for (const line of ics.split('\r\n')) {
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      expect(line).not.toContain('\uFFFD');
    }
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain(`DESCRIPTION:${'é'.repeat(100)}`);
  });

  it('marks a cancelled booking so calendars remove it', () => {
    const ics = bookingCalendar({ ...event, cancelled: true });
    expect(ics).toContain('METHOD:CANCEL');
    expect(ics).toContain('STATUS:CANCELLED');
  });
});
