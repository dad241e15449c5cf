import type { Db, Tx } from '../../db/client.ts';
import { authorize } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';

/** A company's plan, limits and usage: those who manage the company (owners and admins). */
export const canReadBilling = (db: Db | Tx, caller: Caller, companyId: string) =>
  authorize(db, caller, 'company.manage', { kind: 'company', companyId });
