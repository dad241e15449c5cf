CREATE TABLE "payment_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_webhook_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_id" uuid,
	"plan" text,
	"payer_user_id" uuid,
	"payer_email" text,
	"list_amount_minor" integer NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"promotion_id" uuid,
	"promotion_code" text,
	"provider" text NOT NULL,
	"provider_ref" text,
	"checkout_url" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"refund_status" text,
	"refunded_minor" integer DEFAULT 0 NOT NULL,
	"refund_ref" text,
	"refund_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payments_kind_check" CHECK ("payments"."kind" in ('visit', 'plan')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('pending', 'paid', 'failed', 'cancelled', 'expired')),
	CONSTRAINT "payments_refund_status_check" CHECK ("payments"."refund_status" is null or "payments"."refund_status" in ('pending', 'succeeded', 'failed')),
	CONSTRAINT "payments_target_check" CHECK (("payments"."kind" = 'visit' and "payments"."plan" is null) or ("payments"."kind" = 'plan' and "payments"."plan" is not null and "payments"."token_id" is null)),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_minor" >= 0 and "payments"."amount_minor" <= "payments"."list_amount_minor" and "payments"."refunded_minor" between 0 and "payments"."amount_minor"),
	CONSTRAINT "payments_currency_check" CHECK ("payments"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_counter_check";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan_status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan_renews_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan_cancels_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan_subscription_ref" text;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "cancel_notice_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "refund_percent" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "released_places" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_token_id_queue_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."queue_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payer_user_id_users_id_fk" FOREIGN KEY ("payer_user_id") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_promotion_id_client_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."client_promotions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_open_token_key" ON "payments" USING btree ("token_id") WHERE "payments"."status" = 'pending' and "payments"."token_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_ref_key" ON "payments" USING btree ("provider","provider_ref") WHERE "payments"."provider_ref" is not null;--> statement-breakpoint
CREATE INDEX "payments_company_idx" ON "payments" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_payer_idx" ON "payments" USING btree ("payer_user_id");--> statement-breakpoint
CREATE INDEX "payments_pending_expiry_idx" ON "payments" USING btree ("expires_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_plan_status_check" CHECK ("companies"."plan_status" in ('active', 'past_due', 'cancelled'));--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_cancel_notice_check" CHECK ("queues"."cancel_notice_minutes" between 0 and 43200);--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_refund_percent_check" CHECK ("queues"."refund_percent" between 0 and 100);--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_counter_check" CHECK ("sessions"."released_places" between 0 and "sessions"."last_issued_number" and "sessions"."last_issued_number" - "sessions"."released_places" <= "sessions"."capacity");