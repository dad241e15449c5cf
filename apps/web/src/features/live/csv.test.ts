import type { QueueToken } from '@upnext/contract/tokens';
import { describe, expect, it } from 'vitest';
import { tokensToCsv } from './csv.ts';

const token: QueueToken = {
  id: '0b7c1f8e-2d3a-4c5b-8e9f-1a2b3c4d5e6f',
  sessionId: '6f1d2c7a-3b1e-4f4e-9a8c-2d2b6f9e0a11',
  queueId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  number: 7,
  displayNumber: 'A-007',
  kind: 'walk_in',
  status: 'served',
  serviceId: null,
  slotNo: null,
  slotStartsAt: null,
  visitorName: 'Doe, "Jo"\nJunior',
  visitorEmail: null,
  visitorPhone: '+44 20 7946 0018',
  priority: 0,
  notes: '',
  joinedAt: '2026-11-23T09:00:00.000Z',
  calledAt: '2026-11-23T09:10:00.000Z',
  calledBy: null,
  calledByMe: false,
  completedAt: '2026-11-23T09:15:00.000Z',
  cancelledAt: null,
  cancelReason: null,
  serviceSeconds: 300,
  position: null,
  estimatedWaitMinutes: null,
  sessionStatus: 'open',
  sessionNotes: '',
  payment: null,
  statusUrl: 'http://localhost/visit/csv',
  companyName: 'Harbourview Health Centre',
  queueName: 'General practice',
  counter: null,
  answers: [],
  changeUntil: null,
};

describe('Tokens CSV', () => {
  it('exports the columns in order, one line per token, a name with all three hazards intact', () => {
    const csv = tokensToCsv([token]);
    expect(csv).toBe(
      'number,name,phone,email,kind,status,joined,called,completed,service seconds\r\n' +
        'A-007,"Doe, ""Jo""\nJunior",+44 20 7946 0018,,walk_in,served,' +
        '2026-11-23T09:00:00.000Z,2026-11-23T09:10:00.000Z,2026-11-23T09:15:00.000Z,300\r\n',
    );
  });
});
