CREATE TABLE "agent_capabilities" (
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"capabilities" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_kind" text NOT NULL,
	"updated_by_agent" text,
	CONSTRAINT "agent_capabilities_goal_id_agent_id_pk" PRIMARY KEY("goal_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "gates" (
	"id" text PRIMARY KEY NOT NULL,
	"goal_id" text NOT NULL,
	"kind" text NOT NULL,
	"granularity" text NOT NULL,
	"scope_key" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone,
	"decision" text,
	"decision_note" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_by_kind" text NOT NULL,
	"opened_by_agent" text,
	"resolved_at" timestamp with time zone,
	"resolved_by_kind" text,
	"resolved_by_agent" text
);
--> statement-breakpoint
CREATE TABLE "todo_transitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"goal_id" text NOT NULL,
	"todo_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_agent" text,
	"credential_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "todos" (
	"id" text PRIMARY KEY NOT NULL,
	"goal_id" text NOT NULL,
	"title" text NOT NULL,
	"task_class" text NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"depends_on" text[] DEFAULT '{}'::text[] NOT NULL,
	"resume_when" text[] DEFAULT '{}'::text[] NOT NULL,
	"required_decision_scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"required_capability" text,
	"write_scope" text[] DEFAULT '{}'::text[] NOT NULL,
	"continuation_policy" text NOT NULL,
	"successor_of" text,
	"superseded_by" text,
	"evidence_refs" text[] DEFAULT '{}'::text[] NOT NULL,
	"defer_reason" text,
	"supersede_reason" text,
	"no_follow_up_reason" text,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"lease_holder" text,
	"lease_fence" bigint DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_kind" text NOT NULL,
	"created_by_agent" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_kind" text NOT NULL,
	"updated_by_agent" text,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agent_visions" (
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"role_scope" text NOT NULL,
	"vision_summary" text NOT NULL,
	"acceptance_summary" text NOT NULL,
	"replan_trigger_summary" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_kind" text NOT NULL,
	"updated_by_agent" text,
	CONSTRAINT "agent_visions_goal_id_agent_id_pk" PRIMARY KEY("goal_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "work_seqs" (
	"goal_id" text PRIMARY KEY NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_capabilities" ADD CONSTRAINT "agent_capabilities_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gates" ADD CONSTRAINT "gates_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todo_transitions" ADD CONSTRAINT "todo_transitions_todo_id_todos_id_fk" FOREIGN KEY ("todo_id") REFERENCES "public"."todos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_visions" ADD CONSTRAINT "agent_visions_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_seqs" ADD CONSTRAINT "work_seqs_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gates_goal_idx" ON "gates" USING btree ("goal_id");--> statement-breakpoint
CREATE INDEX "todo_transitions_todo_idx" ON "todo_transitions" USING btree ("goal_id","todo_id","id");--> statement-breakpoint
CREATE INDEX "todos_goal_status_idx" ON "todos" USING btree ("goal_id","status");