CREATE TABLE "company_token_months" (
	"company_id" uuid NOT NULL,
	"month" text NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "company_token_months_company_id_month_pk" PRIMARY KEY("company_id","month"),
	CONSTRAINT "company_token_months_tokens_check" CHECK ("company_token_months"."tokens" >= 0)
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_pending_payment" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_booked" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_waiting" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_called" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_serving" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_served" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_no_show" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "tokens_cancelled" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "company_token_months" ADD CONSTRAINT "company_token_months_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_tokens_session_called_idx" ON "queue_tokens" USING btree ("session_id","called_at" DESC NULLS FIRST,"number" DESC NULLS FIRST) WHERE "queue_tokens"."called_at" is not null;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_token_counts_check" CHECK (least("sessions"."tokens_pending_payment", "sessions"."tokens_booked", "sessions"."tokens_waiting", "sessions"."tokens_called", "sessions"."tokens_serving", "sessions"."tokens_served", "sessions"."tokens_no_show", "sessions"."tokens_cancelled") >= 0);--> statement-breakpoint
-- The counters start from the rows there are.
UPDATE "sessions" SET
  "tokens_pending_payment" = c.pending_payment, "tokens_booked" = c.booked,
  "tokens_waiting" = c.waiting, "tokens_called" = c.called, "tokens_serving" = c.serving,
  "tokens_served" = c.served, "tokens_no_show" = c.no_show, "tokens_cancelled" = c.cancelled
FROM (
  SELECT "session_id",
    count(*) FILTER (WHERE "status" = 'pending_payment') AS pending_payment,
    count(*) FILTER (WHERE "status" = 'booked') AS booked,
    count(*) FILTER (WHERE "status" = 'waiting') AS waiting,
    count(*) FILTER (WHERE "status" = 'called') AS called,
    count(*) FILTER (WHERE "status" = 'serving') AS serving,
    count(*) FILTER (WHERE "status" = 'served') AS served,
    count(*) FILTER (WHERE "status" = 'no_show') AS no_show,
    count(*) FILTER (WHERE "status" = 'cancelled') AS cancelled
  FROM "queue_tokens" GROUP BY "session_id"
) c
WHERE "sessions"."id" = c."session_id";--> statement-breakpoint
INSERT INTO "company_token_months" ("company_id", "month", "tokens")
SELECT q."company_id", to_char(t."joined_at" AT TIME ZONE co."timezone", 'YYYY-MM'), count(*)
FROM "queue_tokens" t
JOIN "sessions" s ON s."id" = t."session_id"
JOIN "queues" q ON q."id" = s."queue_id"
JOIN "companies" co ON co."id" = q."company_id"
WHERE t."cancel_reason" IS DISTINCT FROM 'payment_expired'
GROUP BY 1, 2;--> statement-breakpoint
-- One token leaving `removed` (its old row, or null) and becoming `added` (its new row, or
-- null): the session's count per status, and the company's tokens of the month it joined.
CREATE FUNCTION "queue_tokens_recount"(removed "queue_tokens", added "queue_tokens") RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  was_counted boolean := removed.id IS NOT NULL AND removed.cancel_reason IS DISTINCT FROM 'payment_expired';
  is_counted boolean := added.id IS NOT NULL AND added.cancel_reason IS DISTINCT FROM 'payment_expired';
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
END $$;--> statement-breakpoint
CREATE FUNCTION "queue_tokens_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "queue_tokens_recount"(NULL, NEW);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "queue_tokens_recount"(OLD, NULL);
  ELSE
    PERFORM "queue_tokens_recount"(OLD, NEW);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "queue_tokens_count" AFTER INSERT OR DELETE ON "queue_tokens"
  FOR EACH ROW EXECUTE FUNCTION "queue_tokens_count"();--> statement-breakpoint
CREATE TRIGGER "queue_tokens_count_change"
  AFTER UPDATE OF "status", "cancel_reason", "joined_at", "session_id" ON "queue_tokens"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."cancel_reason" IS DISTINCT FROM NEW."cancel_reason"
    OR OLD."joined_at" IS DISTINCT FROM NEW."joined_at"
    OR OLD."session_id" IS DISTINCT FROM NEW."session_id")
  EXECUTE FUNCTION "queue_tokens_count"();
