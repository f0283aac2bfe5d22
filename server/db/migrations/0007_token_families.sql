CREATE TABLE "token_families" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"device" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "token_families" ADD CONSTRAINT "token_families_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "token_families_user_idx" ON "token_families" USING btree ("user_id");--> statement-breakpoint
-- every session that exists becomes a family row; a family whose every token is revoked was revoked
INSERT INTO "token_families" ("id", "user_id", "device", "created_at", "revoked_at")
SELECT "family_id", (array_agg("user_id"))[1], (array_agg("device"))[1], min("created_at"),
       CASE WHEN bool_and("revoked_at" IS NOT NULL) THEN max("revoked_at") END
FROM "refresh_tokens"
GROUP BY "family_id"
ON CONFLICT ("id") DO NOTHING;
