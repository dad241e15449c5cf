CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"timezone" text NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"logo_url" text,
	"contact_email" text,
	"contact_phone" text,
	"plan" text DEFAULT 'free' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_slug_unique" UNIQUE("slug"),
	CONSTRAINT "companies_plan_check" CHECK ("companies"."plan" in ('free', 'pro', 'business')),
	CONSTRAINT "companies_currency_check" CHECK ("companies"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "companies_slug_check" CHECK ("companies"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);
--> statement-breakpoint
CREATE TABLE "queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"join_code" text NOT NULL,
	"token_prefix" text DEFAULT '' NOT NULL,
	"mode" text DEFAULT 'walk_in' NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"price_minor" integer,
	"currency" text,
	"tokens_per_visitor" integer DEFAULT 1 NOT NULL,
	"turn_approaching_threshold" integer DEFAULT 3 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queues_join_code_unique" UNIQUE("join_code"),
	CONSTRAINT "queues_mode_check" CHECK ("queues"."mode" in ('walk_in', 'slots', 'hybrid')),
	CONSTRAINT "queues_visibility_check" CHECK ("queues"."visibility" in ('public', 'unlisted', 'private')),
	CONSTRAINT "queues_status_check" CHECK ("queues"."status" in ('active', 'archived')),
	CONSTRAINT "queues_join_code_check" CHECK ("queues"."join_code" ~ '^[A-Z0-9]{4,12}$'),
	CONSTRAINT "queues_token_prefix_check" CHECK ("queues"."token_prefix" ~ '^[A-Z0-9]{0,4}$'),
	CONSTRAINT "queues_price_check" CHECK (("queues"."price_minor" is null and "queues"."currency" is null) or ("queues"."price_minor" > 0 and "queues"."currency" ~ '^[A-Z]{3}$')),
	CONSTRAINT "queues_tokens_per_visitor_check" CHECK ("queues"."tokens_per_visitor" between 1 and 20),
	CONSTRAINT "queues_threshold_check" CHECK ("queues"."turn_approaching_threshold" between 0 and 50)
);
--> statement-breakpoint
CREATE TABLE "service_areas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"phone" text,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_areas_latitude_check" CHECK ("service_areas"."latitude" is null or "service_areas"."latitude" between -90 and 90),
	CONSTRAINT "service_areas_longitude_check" CHECK ("service_areas"."longitude" is null or "service_areas"."longitude" between -180 and 180)
);
--> statement-breakpoint
CREATE TABLE "service_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"duration_minutes" integer NOT NULL,
	"price_minor" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_types_duration_check" CHECK ("service_types"."duration_minutes" between 1 and 1440),
	CONSTRAINT "service_types_price_check" CHECK ("service_types"."price_minor" is null or "service_types"."price_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sub_queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"service_type_id" uuid NOT NULL,
	"slot_minutes" integer NOT NULL,
	"capacity_per_slot" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_services_slot_minutes_check" CHECK ("session_services"."slot_minutes" between 1 and 1440),
	CONSTRAINT "session_services_capacity_check" CHECK ("session_services"."capacity_per_slot" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid NOT NULL,
	"sub_queue_id" uuid,
	"date" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"timezone" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"series_id" uuid,
	"last_issued_number" integer DEFAULT 0 NOT NULL,
	"now_serving_number" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_status_check" CHECK ("sessions"."status" in ('scheduled', 'open', 'paused', 'closed', 'cancelled')),
	CONSTRAINT "sessions_window_check" CHECK ("sessions"."ends_at" > "sessions"."starts_at"),
	CONSTRAINT "sessions_capacity_check" CHECK ("sessions"."capacity" between 0 and 100000),
	CONSTRAINT "sessions_counter_check" CHECK ("sessions"."last_issued_number" between 0 and "sessions"."capacity")
);
--> statement-breakpoint
CREATE TABLE "slots" (
	"session_service_id" uuid NOT NULL,
	"slot_no" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"booked_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	CONSTRAINT "slots_session_service_id_slot_no_pk" PRIMARY KEY("session_service_id","slot_no"),
	CONSTRAINT "slots_status_check" CHECK ("slots"."status" in ('open', 'blocked')),
	CONSTRAINT "slots_booked_check" CHECK ("slots"."booked_count" between 0 and "slots"."capacity"),
	CONSTRAINT "slots_slot_no_check" CHECK ("slots"."slot_no" >= 1)
);
--> statement-breakpoint
CREATE TABLE "app_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_areas" ADD CONSTRAINT "service_areas_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_types" ADD CONSTRAINT "service_types_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_queues" ADD CONSTRAINT "sub_queues_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_services" ADD CONSTRAINT "session_services_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_services" ADD CONSTRAINT "session_services_service_type_id_service_types_id_fk" FOREIGN KEY ("service_type_id") REFERENCES "public"."service_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_sub_queue_id_sub_queues_id_fk" FOREIGN KEY ("sub_queue_id") REFERENCES "public"."sub_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_session_service_id_session_services_id_fk" FOREIGN KEY ("session_service_id") REFERENCES "public"."session_services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queues_company_idx" ON "queues" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "service_areas_queue_idx" ON "service_areas" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "service_types_queue_idx" ON "service_types" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "sub_queues_queue_idx" ON "sub_queues" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "session_services_session_idx" ON "session_services" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "sessions_queue_date_idx" ON "sessions" USING btree ("queue_id","date");--> statement-breakpoint
CREATE INDEX "sessions_sub_queue_window_idx" ON "sessions" USING btree ("sub_queue_id","starts_at");--> statement-breakpoint
CREATE INDEX "sessions_series_idx" ON "sessions" USING btree ("series_id");