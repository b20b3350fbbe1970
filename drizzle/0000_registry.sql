CREATE TABLE "agents" (
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"agent_model" text NOT NULL,
	"host_surface" text NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "agents_goal_id_agent_id_pk" PRIMARY KEY("goal_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"label" text NOT NULL,
	"goal_id" text,
	"agent_id" text,
	"provider_id" text,
	"goal_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "credentials_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "delegations" (
	"goal_id" text NOT NULL,
	"agent_goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delegations_goal_id_agent_goal_id_agent_id_pk" PRIMARY KEY("goal_id","agent_goal_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "goals" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_agent_goal_id_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("agent_goal_id","agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credentials_agent_idx" ON "credentials" USING btree ("goal_id","agent_id");--> statement-breakpoint
CREATE INDEX "delegations_agent_idx" ON "delegations" USING btree ("agent_goal_id","agent_id");