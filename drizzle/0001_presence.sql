CREATE TABLE "stream_heads" (
	"goal_id" text NOT NULL,
	"stream" text NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stream_heads_goal_id_stream_pk" PRIMARY KEY("goal_id","stream")
);
--> statement-breakpoint
CREATE TABLE "observations" (
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"source" text NOT NULL,
	"lines" text[] NOT NULL,
	"limits" text[] DEFAULT '{}'::text[] NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	CONSTRAINT "observations_goal_id_agent_id_provider_id_source_pk" PRIMARY KEY("goal_id","agent_id","provider_id","source")
);
--> statement-breakpoint
CREATE TABLE "presence_changes" (
	"goal_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"agent_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"provider_session_ref" text NOT NULL,
	"occupant_ref" text NOT NULL,
	"liveness" text NOT NULL,
	"previous_liveness" text,
	"basis" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"ended" boolean DEFAULT false NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "presence_changes_goal_id_seq_pk" PRIMARY KEY("goal_id","seq")
);
--> statement-breakpoint
CREATE TABLE "presence" (
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"provider_session_ref" text NOT NULL,
	"instance_id" text NOT NULL,
	"occupant_ref" text NOT NULL,
	"liveness" text NOT NULL,
	"basis" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"report_seq" bigint NOT NULL,
	"state_change_seq" bigint NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "presence_goal_id_agent_id_provider_id_provider_session_ref_pk" PRIMARY KEY("goal_id","agent_id","provider_id","provider_session_ref")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"provider_id" text PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"goal_ids" text[] NOT NULL,
	"membership_proof" text NOT NULL,
	"identifier_rules" text NOT NULL,
	"liveness_mapping" jsonb NOT NULL,
	"presence_ttl_ms" integer NOT NULL,
	"observation_sources" jsonb NOT NULL,
	"supports_pinned_waits" boolean NOT NULL,
	"persistence" text NOT NULL,
	"rollup" text,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "presence" ADD CONSTRAINT "presence_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence" ADD CONSTRAINT "presence_provider_id_providers_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("provider_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "presence_provider_idx" ON "presence" USING btree ("provider_id");