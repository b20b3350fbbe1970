CREATE TABLE "delivery_notices" (
	"goal_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"delivery_id" text NOT NULL,
	"via" text NOT NULL,
	"provider_id" text NOT NULL,
	"provider_session_ref" text NOT NULL,
	"occupant_ref" text NOT NULL,
	"text" text,
	"observed_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_notices_goal_id_seq_pk" PRIMARY KEY("goal_id","seq")
);
--> statement-breakpoint
ALTER TABLE "delivery_notices" ADD CONSTRAINT "delivery_notices_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_notices_delivery_idx" ON "delivery_notices" USING btree ("delivery_id");