ALTER TABLE "presence_changes" ADD COLUMN "explain" text;--> statement-breakpoint
ALTER TABLE "presence_changes" ADD COLUMN "blocked_kind" text;--> statement-breakpoint
ALTER TABLE "presence" ADD COLUMN "explain" text;--> statement-breakpoint
ALTER TABLE "presence" ADD COLUMN "blocked_kind" text;