CREATE TABLE "deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"goal_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"sender_key" text NOT NULL,
	"sender_kind" text NOT NULL,
	"sender_goal_id" text,
	"sender_agent_id" text,
	"sender_credential_id" text,
	"to_agent_id" text NOT NULL,
	"requested_to" text,
	"kind" text NOT NULL,
	"todo_id" text,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"body_preview" text NOT NULL,
	"thread_id" text NOT NULL,
	"requested_thread_id" text,
	"reply_to" text,
	"idempotency_key" text NOT NULL,
	"activity_window_ms" integer NOT NULL,
	"timeout_ms" integer NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"pin_state" text NOT NULL,
	"pin_provider" text,
	"pin_session_ref" text,
	"pin_occupant_ref" text,
	"baseline_seq" bigint NOT NULL,
	"outcome" text DEFAULT 'SUBMITTED' NOT NULL,
	"outcome_version" integer DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone,
	"processed_at" timestamp with time zone,
	"taken_at" timestamp with time zone,
	"take_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_outcomes" (
	"delivery_id" text NOT NULL,
	"version" integer NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"seq" bigint,
	"liveness" text,
	"effective_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_outcomes_delivery_id_version_pk" PRIMARY KEY("delivery_id","version")
);
--> statement-breakpoint
CREATE TABLE "inboxes" (
	"goal_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"active_id" text,
	CONSTRAINT "inboxes_goal_id_agent_id_pk" PRIMARY KEY("goal_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "roster_peers" (
	"goal_id" text NOT NULL,
	"owner_key" text NOT NULL,
	"agent_id" text NOT NULL,
	"source" text NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roster_peers_goal_id_owner_key_agent_id_pk" PRIMARY KEY("goal_id","owner_key","agent_id")
);
--> statement-breakpoint
CREATE TABLE "rosters" (
	"goal_id" text NOT NULL,
	"owner_key" text NOT NULL,
	"primary_peer" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rosters_goal_id_owner_key_pk" PRIMARY KEY("goal_id","owner_key")
);
--> statement-breakpoint
CREATE TABLE "stream_heads" (
	"goal_id" text NOT NULL,
	"stream" text NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stream_heads_goal_id_stream_pk" PRIMARY KEY("goal_id","stream")
);
--> statement-breakpoint
CREATE TABLE "ledger_events" (
	"goal_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT date_trunc('milliseconds', clock_timestamp()) NOT NULL,
	"source" text NOT NULL,
	"event_kind" text NOT NULL,
	"agent_id" text,
	"todo_id" text,
	"gate_id" text,
	"related_agent_id" text,
	"classification" text,
	"status" text,
	"summary" text NOT NULL,
	"evidence_refs" text[] DEFAULT '{}'::text[] NOT NULL,
	"material" boolean NOT NULL,
	"goal_change" text,
	"cited_digest" text,
	"raw_logs_recorded" boolean DEFAULT false NOT NULL,
	"raw_trajectory_recorded" boolean DEFAULT false NOT NULL,
	"credential_values_recorded" boolean DEFAULT false NOT NULL,
	"absolute_paths_recorded" boolean DEFAULT false NOT NULL,
	"redaction_count" integer DEFAULT 0 NOT NULL,
	"recorded_by_kind" text NOT NULL,
	"recorded_by_agent" text,
	"credential_id" text,
	CONSTRAINT "ledger_events_goal_id_seq_pk" PRIMARY KEY("goal_id","seq")
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
	"recorded_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
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
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_goal_id_to_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("goal_id","to_agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_outcomes" ADD CONSTRAINT "delivery_outcomes_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inboxes" ADD CONSTRAINT "inboxes_active_id_deliveries_id_fk" FOREIGN KEY ("active_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inboxes" ADD CONSTRAINT "inboxes_goal_id_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("goal_id","agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_peers" ADD CONSTRAINT "roster_peers_goal_id_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("goal_id","agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rosters" ADD CONSTRAINT "rosters_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_events" ADD CONSTRAINT "ledger_events_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence" ADD CONSTRAINT "presence_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presence" ADD CONSTRAINT "presence_provider_id_providers_provider_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("provider_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_agent_goal_id_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("agent_goal_id","agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wait_targets" ADD CONSTRAINT "wait_targets_wait_id_waits_id_fk" FOREIGN KEY ("wait_id") REFERENCES "public"."waits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waits" ADD CONSTRAINT "waits_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_capabilities" ADD CONSTRAINT "agent_capabilities_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gates" ADD CONSTRAINT "gates_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todo_transitions" ADD CONSTRAINT "todo_transitions_todo_id_todos_id_fk" FOREIGN KEY ("todo_id") REFERENCES "public"."todos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_visions" ADD CONSTRAINT "agent_visions_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_seqs" ADD CONSTRAINT "work_seqs_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_goal_seq_idx" ON "deliveries" USING btree ("goal_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_idempotency_idx" ON "deliveries" USING btree ("goal_id","sender_key","idempotency_key");--> statement-breakpoint
CREATE INDEX "deliveries_inbox_idx" ON "deliveries" USING btree ("goal_id","to_agent_id","seq");--> statement-breakpoint
CREATE INDEX "deliveries_open_idx" ON "deliveries" USING btree ("goal_id","outcome") WHERE "deliveries"."outcome" in ('SUBMITTED', 'STALLED');--> statement-breakpoint
CREATE INDEX "ledger_events_agent_idx" ON "ledger_events" USING btree ("goal_id","agent_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_events_todo_idx" ON "ledger_events" USING btree ("goal_id","todo_id","seq") WHERE "ledger_events"."todo_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_gate_idx" ON "ledger_events" USING btree ("goal_id","gate_id","seq") WHERE "ledger_events"."gate_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_related_idx" ON "ledger_events" USING btree ("goal_id","related_agent_id","seq") WHERE "ledger_events"."related_agent_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_goal_level_idx" ON "ledger_events" USING btree ("goal_id","seq") WHERE "ledger_events"."goal_change" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_material_idx" ON "ledger_events" USING btree ("goal_id","agent_id","seq") WHERE "ledger_events"."material";--> statement-breakpoint
CREATE INDEX "ledger_events_time_idx" ON "ledger_events" USING btree ("goal_id","recorded_at");--> statement-breakpoint
CREATE INDEX "presence_provider_idx" ON "presence" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "credentials_agent_idx" ON "credentials" USING btree ("goal_id","agent_id");--> statement-breakpoint
CREATE INDEX "delegations_agent_idx" ON "delegations" USING btree ("agent_goal_id","agent_id");--> statement-breakpoint
CREATE INDEX "waits_pending_idx" ON "waits" USING btree ("goal_id","status");--> statement-breakpoint
CREATE INDEX "gates_goal_idx" ON "gates" USING btree ("goal_id");--> statement-breakpoint
CREATE INDEX "todo_transitions_todo_idx" ON "todo_transitions" USING btree ("goal_id","todo_id","id");--> statement-breakpoint
CREATE INDEX "todos_goal_status_idx" ON "todos" USING btree ("goal_id","status");--> statement-breakpoint
CREATE INDEX "todos_open_claims_idx" ON "todos" USING btree ("goal_id","claimed_by","priority" DESC NULLS LAST,"claimed_at") WHERE "todos"."status" = 'OPEN';