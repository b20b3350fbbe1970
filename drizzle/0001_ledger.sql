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
ALTER TABLE "ledger_events" ADD CONSTRAINT "ledger_events_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_events_agent_idx" ON "ledger_events" USING btree ("goal_id","agent_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_events_todo_idx" ON "ledger_events" USING btree ("goal_id","todo_id","seq") WHERE "ledger_events"."todo_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_gate_idx" ON "ledger_events" USING btree ("goal_id","gate_id","seq") WHERE "ledger_events"."gate_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_related_idx" ON "ledger_events" USING btree ("goal_id","related_agent_id","seq") WHERE "ledger_events"."related_agent_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_goal_level_idx" ON "ledger_events" USING btree ("goal_id","seq") WHERE "ledger_events"."goal_change" is not null;--> statement-breakpoint
CREATE INDEX "ledger_events_material_idx" ON "ledger_events" USING btree ("goal_id","agent_id","seq") WHERE "ledger_events"."material";--> statement-breakpoint
CREATE INDEX "ledger_events_time_idx" ON "ledger_events" USING btree ("goal_id","recorded_at");--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): keep it when migrations are squashed.
-- The ledger is append-only: UPDATE and DELETE are refused outright.
CREATE FUNCTION "ledger_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_events is append-only: % is not allowed', TG_OP;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_events_append_only" BEFORE UPDATE OR DELETE ON "ledger_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_events_append_only"();
