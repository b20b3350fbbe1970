-- Hand-written (drizzle-kit does not model triggers).
-- The evidence ledger is append-only: UPDATE and DELETE are refused outright.
CREATE FUNCTION "ledger_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_events is append-only: % is not allowed', TG_OP;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_events_append_only" BEFORE UPDATE OR DELETE ON "ledger_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_events_append_only"();
