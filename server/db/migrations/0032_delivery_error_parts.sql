ALTER TABLE "webhook_deliveries" ADD COLUMN "last_error_parts" jsonb;--> statement-breakpoint
ALTER TABLE "xapi_statements" ADD COLUMN "last_error_parts" jsonb;