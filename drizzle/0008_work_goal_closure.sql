CREATE TABLE "goal_closures" (
	"goal_id" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"acceptance_refs" text[] NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_by_kind" text NOT NULL,
	"closed_by_agent" text,
	"credential_id" text,
	"work_seq" bigint NOT NULL,
	"ledger_seq" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "goal_closures" ADD CONSTRAINT "goal_closures_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;