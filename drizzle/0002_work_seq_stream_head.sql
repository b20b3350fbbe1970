-- The work sequence becomes the goal's `work` stream head: one sequence mechanism
-- (stream_heads). Each goal's current value is copied before work_seqs is dropped, so the
-- sequence continues where it was (a head already there keeps the larger value).
INSERT INTO "stream_heads" ("goal_id", "stream", "seq")
  SELECT "goal_id", 'work', "seq" FROM "work_seqs"
  ON CONFLICT ("goal_id", "stream") DO UPDATE SET "seq" = GREATEST("stream_heads"."seq", EXCLUDED."seq");--> statement-breakpoint
DROP TABLE "work_seqs" CASCADE;
