import type { Db, Tx } from '../../db/client.ts';
import { authorize } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';

/** A company's reports: its members (owners, admins and staff); anyone else is refused. */
export const canReadReports = (db: Db | Tx, caller: Caller, companyId: string) =>
  authorize(db, caller, 'company.read_reports', { kind: 'company', companyId });
