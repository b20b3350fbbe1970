CREATE TABLE "wait_targets" (
	"wait_id" text NOT NULL,
	"position" integer NOT NULL,
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"todo_id" text,
	"state" text NOT NULL,
	"provider" text,
	"provider_session_ref" text,
	"occupant_ref" text,
	"baseline_seq" bigint NOT NULL,
	CONSTRAINT "wait_targets_wait_id_position_pk" PRIMARY KEY("wait_id","position")
);
--> statement-breakpoint
CREATE TABLE "waits" (
	"id" text PRIMARY KEY NOT NULL,
	"goal_id" text NOT NULL,
	"accept" text[] NOT NULL,
	"timeout_ms" integer NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reason" text,
	"resolved_agent_id" text,
	"resolved_seq" bigint,
	"resolved_liveness" text,
	"resolved_at" timestamp with time zone,
	"created_by_kind" text NOT NULL,
	"created_by_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wait_targets" ADD CONSTRAINT "wait_targets_wait_id_waits_id_fk" FOREIGN KEY ("wait_id") REFERENCES "public"."waits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waits" ADD CONSTRAINT "waits_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waits_pending_idx" ON "waits" USING btree ("goal_id","status");