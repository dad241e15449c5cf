CREATE TABLE "queue_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"display_number" text NOT NULL,
	"kind" text NOT NULL,
	"session_service_id" uuid,
	"slot_no" integer,
	"slot_starts_at" timestamp with time zone,
	"user_id" uuid,
	"visitor_name" text DEFAULT '' NOT NULL,
	"visitor_email" text,
	"visitor_phone" text,
	"status" text NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"issued_by" uuid,
	"called_by" uuid,
	"recall_count" integer DEFAULT 0 NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"called_at" timestamp with time zone,
	"serving_started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"service_seconds" integer,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "queue_tokens_number_check" CHECK ("queue_tokens"."number" >= 1),
	CONSTRAINT "queue_tokens_kind_check" CHECK ("queue_tokens"."kind" in ('walk_in', 'booking')),
	CONSTRAINT "queue_tokens_status_check" CHECK ("queue_tokens"."status" in ('pending_payment', 'booked', 'waiting', 'called', 'serving', 'served', 'no_show', 'cancelled')),
	CONSTRAINT "queue_tokens_booking_check" CHECK (("queue_tokens"."kind" = 'booking') = ("queue_tokens"."session_service_id" is not null and "queue_tokens"."slot_no" is not null)),
	CONSTRAINT "queue_tokens_service_seconds_check" CHECK ("queue_tokens"."service_seconds" is null or "queue_tokens"."service_seconds" >= 0)
);
--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_session_service_id_session_services_id_fk" FOREIGN KEY ("session_service_id") REFERENCES "public"."session_services"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_called_by_users_id_fk" FOREIGN KEY ("called_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_tokens_session_number_key" ON "queue_tokens" USING btree ("session_id","number");--> statement-breakpoint
CREATE INDEX "queue_tokens_session_status_idx" ON "queue_tokens" USING btree ("session_id","status");--> statement-breakpoint
CREATE INDEX "queue_tokens_user_idx" ON "queue_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "queue_tokens_slot_idx" ON "queue_tokens" USING btree ("session_service_id","slot_no");