import { companyPlans } from '@upnext/contract/companies';
import { paymentKinds, paymentStatuses, refundStatuses } from '@upnext/contract/payments';
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth.ts';
import { companies } from './companies.ts';
import { clientPromotions } from './queues.ts';
import { queueTokens } from './tokens.ts';
import { isOneOf } from './values.ts';

/**
 * One checkout: for a visit (its token waits as `pending_payment` until this is paid) or for a
 * company's plan. Its outcome is set only from the provider's signed webhook (or a server-side
 * check of the checkout), never from the page the payer returns to.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: paymentKinds }).notNull(),
    tokenId: uuid('token_id').references(() => queueTokens.id, { onDelete: 'set null' }),
    plan: text('plan', { enum: companyPlans }),
    payerUserId: uuid('payer_user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    payerEmail: text('payer_email'),
    /** Before any discount, in minor units of `currency`. */
    listAmountMinor: integer('list_amount_minor').notNull(),
    /** What the payer is charged. */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    promotionId: uuid('promotion_id').references(() => clientPromotions.id, {
      onDelete: 'set null',
    }),
    promotionCode: text('promotion_code'),
    provider: text('provider').notNull(),
    /** The provider's id of the checkout (Stripe: the Checkout Session id). */
    providerRef: text('provider_ref'),
    checkoutUrl: text('checkout_url'),
    status: text('status', { enum: paymentStatuses }).notNull().default('pending'),
    /** Why it failed, in words safe to show the payer. */
    failureReason: text('failure_reason'),
    /** A visit's hold ends here: unpaid by then, the token is released. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundStatus: text('refund_status', { enum: refundStatuses }),
    refundedMinor: integer('refunded_minor').notNull().default(0),
    /**
     * The refund under way (counted in `refunded_minor` already): asked again by the sweep if the
     * provider's answer never got stored (a crash after the commit), given back if it fails.
     */
    refundPendingMinor: integer('refund_pending_minor').notNull().default(0),
    refundRef: text('refund_ref'),
    refundReason: text('refund_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One open checkout per token: asking again answers the open one.
    uniqueIndex('payments_open_token_key')
      .on(t.tokenId)
      .where(sql`${t.status} = 'pending' and ${t.tokenId} is not null`),
    uniqueIndex('payments_provider_ref_key')
      .on(t.provider, t.providerRef)
      .where(sql`${t.providerRef} is not null`),
    index('payments_company_idx').on(t.companyId, t.createdAt),
    index('payments_payer_idx').on(t.payerUserId),
    // The expiry sweep: open checkouts by deadline.
    index('payments_pending_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    check('payments_kind_check', isOneOf(t.kind, paymentKinds)),
    check('payments_status_check', isOneOf(t.status, paymentStatuses)),
    check(
      'payments_refund_status_check',
      sql`${t.refundStatus} is null or ${isOneOf(t.refundStatus, refundStatuses)}`,
    ),
    check(
      'payments_target_check',
      sql`(${t.kind} = 'visit' and ${t.plan} is null) or (${t.kind} = 'plan' and ${t.plan} is not null and ${t.tokenId} is null)`,
    ),
    check(
      'payments_amount_check',
      sql`${t.amountMinor} >= 0 and ${t.amountMinor} <= ${t.listAmountMinor} and ${t.refundedMinor} between 0 and ${t.amountMinor}`,
    ),
    check(
      'payments_refund_pending_check',
      sql`${t.refundPendingMinor} between 0 and ${t.refundedMinor} and (${t.refundPendingMinor} = 0 or ${t.refundStatus} = 'pending')`,
    ),
    check('payments_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/** Webhook events already applied, by the provider's event id: a replay changes nothing. */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
