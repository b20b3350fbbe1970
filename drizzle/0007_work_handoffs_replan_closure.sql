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
CREATE TABLE "handoffs" (
	"id" text PRIMARY KEY NOT NULL,
	"goal_id" text NOT NULL,
	"todo_id" text NOT NULL,
	"from_agent" text,
	"to_agent" text,
	"next_action" text NOT NULL,
	"validation" text NOT NULL,
	"stop_condition" text NOT NULL,
	"omitted" text[] DEFAULT '{}'::text[] NOT NULL,
	"repository" text,
	"worktree" text,
	"revision" text,
	"workspace_declared_at" timestamp with time zone,
	"packet" jsonb NOT NULL,
	"delivery_id" text,
	"work_seq" bigint NOT NULL,
	"ledger_seq" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_kind" text NOT NULL,
	"credential_id" text
);
--> statement-breakpoint
ALTER TABLE "goal_closures" ADD CONSTRAINT "goal_closures_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_todo_id_todos_id_fk" FOREIGN KEY ("todo_id") REFERENCES "public"."todos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "handoffs_todo_idx" ON "handoffs" USING btree ("goal_id","todo_id","created_at");--> statement-breakpoint
CREATE INDEX "handoffs_to_idx" ON "handoffs" USING btree ("goal_id","to_agent","created_at");--> statement-breakpoint
CREATE INDEX "ledger_events_replan_idx" ON "ledger_events" USING btree ("goal_id","agent_id","seq") WHERE "ledger_events"."event_kind" = 'REPLAN';