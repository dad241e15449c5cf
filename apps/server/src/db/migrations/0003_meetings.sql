CREATE TABLE "meetings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"token_id" uuid NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"visitor_user_id" uuid NOT NULL,
	"state" text DEFAULT 'ringing' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ringing_until" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "meetings_state_check" CHECK ("meetings"."state" in ('ringing', 'active', 'ended', 'declined', 'missed')),
	CONSTRAINT "meetings_parties_check" CHECK ("meetings"."staff_user_id" <> "meetings"."visitor_user_id"),
	CONSTRAINT "meetings_ended_check" CHECK (("meetings"."state" in ('ringing', 'active')) = ("meetings"."ended_at" is null)),
	CONSTRAINT "meetings_answered_check" CHECK (("meetings"."state" <> 'active' or "meetings"."answered_at" is not null) and ("meetings"."state" <> 'ringing' or "meetings"."answered_at" is null))
);
--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_token_id_queue_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."queue_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meetings" ADD CONSTRAINT "meetings_visitor_user_id_users_id_fk" FOREIGN KEY ("visitor_user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meetings_live_token_key" ON "meetings" USING btree ("token_id") WHERE "meetings"."state" in ('ringing', 'active');--> statement-breakpoint
CREATE INDEX "meetings_ringing_idx" ON "meetings" USING btree ("ringing_until") WHERE "meetings"."state" = 'ringing';--> statement-breakpoint
CREATE INDEX "meetings_staff_idx" ON "meetings" USING btree ("staff_user_id","created_at");--> statement-breakpoint
CREATE INDEX "meetings_visitor_idx" ON "meetings" USING btree ("visitor_user_id","created_at");