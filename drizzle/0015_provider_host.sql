ALTER TABLE "presence_changes" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "presence" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "host" text;