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
ALTER TABLE "presence_changes" ALTER COLUMN "recorded_at" SET DEFAULT clock_timestamp();--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_goal_id_to_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("goal_id","to_agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_outcomes" ADD CONSTRAINT "delivery_outcomes_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inboxes" ADD CONSTRAINT "inboxes_active_id_deliveries_id_fk" FOREIGN KEY ("active_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inboxes" ADD CONSTRAINT "inboxes_goal_id_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("goal_id","agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_peers" ADD CONSTRAINT "roster_peers_goal_id_agent_id_agents_goal_id_agent_id_fk" FOREIGN KEY ("goal_id","agent_id") REFERENCES "public"."agents"("goal_id","agent_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rosters" ADD CONSTRAINT "rosters_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_goal_seq_idx" ON "deliveries" USING btree ("goal_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_idempotency_idx" ON "deliveries" USING btree ("goal_id","sender_key","idempotency_key");--> statement-breakpoint
CREATE INDEX "deliveries_inbox_idx" ON "deliveries" USING btree ("goal_id","to_agent_id","seq");--> statement-breakpoint
CREATE INDEX "deliveries_open_idx" ON "deliveries" USING btree ("goal_id","outcome") WHERE "deliveries"."outcome" in ('SUBMITTED', 'STALLED');