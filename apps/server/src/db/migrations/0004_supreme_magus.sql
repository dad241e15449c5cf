ALTER TABLE "companies" ADD COLUMN "country" text DEFAULT 'GB' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "visitor_notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_tokens_idempotency_key" ON "queue_tokens" USING btree ("session_id","idempotency_key") WHERE "queue_tokens"."idempotency_key" is not null;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_country_check" CHECK ("companies"."country" ~ '^[A-Z]{2}$');