CREATE TABLE "auth"."mfa_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"factor_id" uuid NOT NULL,
	"ip" text NOT NULL,
	"otp_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth"."mfa_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"friendly_name" text,
	"factor_type" text NOT NULL,
	"status" text DEFAULT 'unverified' NOT NULL,
	"secret" text,
	"phone" text,
	"last_used_step" integer,
	"last_challenged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth"."oauth_states" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"redirect_to" text NOT NULL,
	"code_challenge" text,
	"link_user_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'invited' NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_users_role_check" CHECK ("company_users"."role" in ('owner', 'admin', 'staff')),
	CONSTRAINT "company_users_status_check" CHECK ("company_users"."status" in ('invited', 'active', 'disabled'))
);
--> statement-breakpoint
CREATE TABLE "user_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"avatar_url" text,
	"timezone" text,
	"subscribe_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_profiles_subscribe_id_unique" UNIQUE("subscribe_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"template" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_channel_check" CHECK ("notifications"."channel" in ('email', 'sms')),
	CONSTRAINT "notifications_status_check" CHECK ("notifications"."status" in ('pending', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "client_promotions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"queue_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"code" text,
	"discount_percent" integer NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_promotions_discount_check" CHECK ("client_promotions"."discount_percent" between 1 and 100),
	CONSTRAINT "client_promotions_window_check" CHECK ("client_promotions"."valid_from" is null or "client_promotions"."valid_to" is null or "client_promotions"."valid_from" < "client_promotions"."valid_to")
);
--> statement-breakpoint
CREATE TABLE "join_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "join_requests_status_check" CHECK ("join_requests"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "sub_queue_staff" (
	"sub_queue_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sub_queue_staff_sub_queue_id_user_id_pk" PRIMARY KEY("sub_queue_id","user_id")
);
--> statement-breakpoint
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
ALTER TABLE "auth"."mfa_challenges" ADD CONSTRAINT "mfa_challenges_factor_id_mfa_factors_id_fk" FOREIGN KEY ("factor_id") REFERENCES "auth"."mfa_factors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth"."mfa_factors" ADD CONSTRAINT "mfa_factors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth"."oauth_states" ADD CONSTRAINT "oauth_states_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_users" ADD CONSTRAINT "company_users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_users" ADD CONSTRAINT "company_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_users" ADD CONSTRAINT "company_users_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_promotions" ADD CONSTRAINT "client_promotions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_promotions" ADD CONSTRAINT "client_promotions_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "join_requests" ADD CONSTRAINT "join_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_queue_staff" ADD CONSTRAINT "sub_queue_staff_sub_queue_id_sub_queues_id_fk" FOREIGN KEY ("sub_queue_id") REFERENCES "public"."sub_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_queue_staff" ADD CONSTRAINT "sub_queue_staff_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_session_service_id_session_services_id_fk" FOREIGN KEY ("session_service_id") REFERENCES "public"."session_services"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tokens" ADD CONSTRAINT "queue_tokens_called_by_users_id_fk" FOREIGN KEY ("called_by") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_challenges_factor_id_idx" ON "auth"."mfa_challenges" USING btree ("factor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_factors_user_friendly_name_key" ON "auth"."mfa_factors" USING btree ("user_id","friendly_name");--> statement-breakpoint
CREATE INDEX "mfa_factors_user_id_idx" ON "auth"."mfa_factors" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "auth"."oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "company_users_company_user_key" ON "company_users" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "company_users_user_idx" ON "company_users" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "notifications_due_idx" ON "notifications" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key" ON "notifications" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "client_promotions_company_idx" ON "client_promotions" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "join_requests_queue_user_key" ON "join_requests" USING btree ("queue_id","user_id");--> statement-breakpoint
CREATE INDEX "join_requests_user_idx" ON "join_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sub_queue_staff_user_idx" ON "sub_queue_staff" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_tokens_session_number_key" ON "queue_tokens" USING btree ("session_id","number");--> statement-breakpoint
CREATE INDEX "queue_tokens_session_status_idx" ON "queue_tokens" USING btree ("session_id","status");--> statement-breakpoint
CREATE INDEX "queue_tokens_user_idx" ON "queue_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "queue_tokens_slot_idx" ON "queue_tokens" USING btree ("session_service_id","slot_no");