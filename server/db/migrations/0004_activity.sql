CREATE TABLE "activity_daily" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"resource_id" uuid NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_daily_pkey" PRIMARY KEY("user_id","day","resource_id")
);
--> statement-breakpoint
CREATE TABLE "activity_heartbeats" (
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"resource_id" uuid NOT NULL,
	"at" bigint NOT NULL,
	"tab_active" boolean NOT NULL,
	"audible" boolean NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activity_heartbeats_user_client_key" PRIMARY KEY("user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "activity_resource_totals" (
	"user_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	"last_at" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_resource_totals_pkey" PRIMARY KEY("user_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "activity_uninstall_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email_id" text NOT NULL,
	"reasons" text[] NOT NULL,
	"other" text,
	"message" text,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_daily" ADD CONSTRAINT "activity_daily_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_daily" ADD CONSTRAINT "activity_daily_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_heartbeats" ADD CONSTRAINT "activity_heartbeats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_heartbeats" ADD CONSTRAINT "activity_heartbeats_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_resource_totals" ADD CONSTRAINT "activity_resource_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_resource_totals" ADD CONSTRAINT "activity_resource_totals_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_uninstall_feedback" ADD CONSTRAINT "activity_uninstall_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_daily_resource_idx" ON "activity_daily" USING btree ("resource_id");--> statement-breakpoint
CREATE INDEX "activity_heartbeats_user_at_idx" ON "activity_heartbeats" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "activity_resource_totals_recent_idx" ON "activity_resource_totals" USING btree ("user_id","last_at" desc);--> statement-breakpoint
CREATE INDEX "activity_resource_totals_resource_idx" ON "activity_resource_totals" USING btree ("resource_id");