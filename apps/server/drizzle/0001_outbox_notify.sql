-- Realtime fan-out (DESIGN "realtime"): NOTIFY carries the outbox row as JSON; PostgreSQL delivers
-- it only when the writing transaction commits, so listeners never see a change that rolled back.
CREATE FUNCTION outbox_notify() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('pm_realtime', json_build_object('id', NEW.id, 'topic', NEW.topic, 'payload', NEW.payload)::text);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER outbox_notify_after_insert AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_notify();
