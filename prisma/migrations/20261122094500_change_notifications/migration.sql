-- Instances cache the catalog (businesses, hours, ZIPs, links) and busy time (visits, blocks)
-- for searches. PostgreSQL delivers NOTIFY at commit, so every instance that LISTENs drops
-- exactly the data a committed change touched, and never sees an uncommitted one.
CREATE FUNCTION porchlight_notify_catalog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('porchlight_catalog', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE FUNCTION porchlight_notify_schedule() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('porchlight_schedule', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER "Business_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Business" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_catalog();
CREATE TRIGGER "WeeklyHours_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "WeeklyHours" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_catalog();
CREATE TRIGGER "ServiceZip_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ServiceZip" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_catalog();
CREATE TRIGGER "BusinessLink_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "BusinessLink" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_catalog();
CREATE TRIGGER "BookingVisit_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "BookingVisit" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_schedule();
CREATE TRIGGER "Block_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Block" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_schedule();
