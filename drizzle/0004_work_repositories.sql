CREATE TABLE "external_events" (
	"id" text PRIMARY KEY NOT NULL,
	"goal_id" text NOT NULL,
	"kind" text NOT NULL,
	"repository" text NOT NULL,
	"ref" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_by_kind" text NOT NULL,
	"recorded_by_agent" text,
	"credential_id" text
);
--> statement-breakpoint
ALTER TABLE "todos" ADD COLUMN "task_repository" text;--> statement-breakpoint
ALTER TABLE "external_events" ADD CONSTRAINT "external_events_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_events_fact_idx" ON "external_events" USING btree ("goal_id","kind","repository","ref");