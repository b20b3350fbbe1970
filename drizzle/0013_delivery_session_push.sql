ALTER TABLE "deliveries" ADD COLUMN "pushed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "push_count" integer DEFAULT 0 NOT NULL;