CREATE TABLE "agent_workspaces" (
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"repository" text NOT NULL,
	"worktree" text NOT NULL,
	"revision" text NOT NULL,
	"declared_at" timestamp with time zone DEFAULT now() NOT NULL,
	"declared_by_kind" text NOT NULL,
	"declared_by_agent" text,
	CONSTRAINT "agent_workspaces_goal_id_agent_id_pk" PRIMARY KEY("goal_id","agent_id")
);
--> statement-breakpoint
ALTER TABLE "agent_workspaces" ADD CONSTRAINT "agent_workspaces_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;