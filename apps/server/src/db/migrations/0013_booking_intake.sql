ALTER TABLE "queues" ADD COLUMN "change_cutoff_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "intake_questions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD COLUMN "intake_answers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_change_cutoff_check" CHECK ("queues"."change_cutoff_minutes" between 0 and 43200);--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_intake_questions_check" CHECK (jsonb_typeof("queues"."intake_questions") = 'array');--> statement-breakpoint-- The number a booking leaves behind when it moves to another session (a cancelled row,
-- reason 'rescheduled') is no new token of the month: counted like a released hold.
CREATE OR REPLACE FUNCTION "queue_tokens_recount"(removed "queue_tokens", added "queue_tokens") RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  was_counted boolean := removed.id IS NOT NULL AND removed.cancel_reason IS DISTINCT FROM 'payment_expired' AND removed.cancel_reason IS DISTINCT FROM 'rescheduled';
  is_counted boolean := added.id IS NOT NULL AND added.cancel_reason IS DISTINCT FROM 'payment_expired' AND added.cancel_reason IS DISTINCT FROM 'rescheduled';
BEGIN
  IF removed.session_id IS DISTINCT FROM added.session_id OR removed.status IS DISTINCT FROM added.status THEN
    UPDATE "sessions" SET
      "tokens_pending_payment" = "tokens_pending_payment" + (("id" = added.session_id AND added.status = 'pending_payment') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'pending_payment') IS TRUE)::int,
      "tokens_booked" = "tokens_booked" + (("id" = added.session_id AND added.status = 'booked') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'booked') IS TRUE)::int,
      "tokens_waiting" = "tokens_waiting" + (("id" = added.session_id AND added.status = 'waiting') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'waiting') IS TRUE)::int,
      "tokens_called" = "tokens_called" + (("id" = added.session_id AND added.status = 'called') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'called') IS TRUE)::int,
      "tokens_serving" = "tokens_serving" + (("id" = added.session_id AND added.status = 'serving') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'serving') IS TRUE)::int,
      "tokens_served" = "tokens_served" + (("id" = added.session_id AND added.status = 'served') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'served') IS TRUE)::int,
      "tokens_no_show" = "tokens_no_show" + (("id" = added.session_id AND added.status = 'no_show') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'no_show') IS TRUE)::int,
      "tokens_cancelled" = "tokens_cancelled" + (("id" = added.session_id AND added.status = 'cancelled') IS TRUE)::int - (("id" = removed.session_id AND removed.status = 'cancelled') IS TRUE)::int
    WHERE "id" IN (removed.session_id, added.session_id);
  END IF;
  IF was_counted IS DISTINCT FROM is_counted OR (was_counted AND (
      removed.session_id IS DISTINCT FROM added.session_id OR removed.joined_at IS DISTINCT FROM added.joined_at)) THEN
    -- A decrement is an update: an insert's row is checked (tokens >= 0) before its conflict.
    IF was_counted THEN
      UPDATE "company_token_months" m SET "tokens" = m."tokens" - 1
      FROM "sessions" s
      JOIN "queues" q ON q."id" = s."queue_id"
      JOIN "companies" co ON co."id" = q."company_id"
      WHERE s."id" = removed.session_id AND m."company_id" = q."company_id"
        AND m."month" = to_char(removed.joined_at AT TIME ZONE co."timezone", 'YYYY-MM');
    END IF;
    IF is_counted THEN
      INSERT INTO "company_token_months" AS m ("company_id", "month", "tokens")
      SELECT q."company_id", to_char(added.joined_at AT TIME ZONE co."timezone", 'YYYY-MM'), 1
      FROM "sessions" s
      JOIN "queues" q ON q."id" = s."queue_id"
      JOIN "companies" co ON co."id" = q."company_id"
      WHERE s."id" = added.session_id
      ON CONFLICT ("company_id", "month") DO UPDATE SET "tokens" = m."tokens" + 1;
    END IF;
  END IF;
END $$;
