ALTER TABLE "presence_changes" ADD COLUMN "lapse" text;--> statement-breakpoint
ALTER TABLE "presence" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "presence" SET "expires_at" = "presence"."observed_at" + "providers"."presence_ttl_ms" * interval '1 millisecond' FROM "providers" WHERE "providers"."provider_id" = "presence"."provider_id";--> statement-breakpoint
ALTER TABLE "presence" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "presence" ADD COLUMN "lapse" text;--> statement-breakpoint
CREATE INDEX "presence_expiry_idx" ON "presence" USING btree ("expires_at") WHERE "presence"."ended_at" is null and "presence"."lapse" is null;
