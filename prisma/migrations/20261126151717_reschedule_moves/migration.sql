-- Reschedules move a booking's visit in place (same row, so the customer's calendar event keeps
-- its UID). The exclusion constraint already checks an UPDATE; the blocks trigger of migration
-- 20261123132059 ran on INSERT only, so a move into blocked time went unchecked by the database.
-- It now also runs when a visit changes its time or becomes active again; other updates
-- (confirming, cancelling) skip the check and take no lock.
CREATE OR REPLACE FUNCTION porchlight_visit_outside_blocks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."active" AND (
    TG_OP = 'INSERT' OR NOT OLD."active" OR OLD."start" IS DISTINCT FROM NEW."start" OR OLD."end" IS DISTINCT FROM NEW."end"
  ) THEN
    PERFORM pg_advisory_xact_lock_shared(hashtext('schedule:' || NEW."businessId"));
    IF EXISTS (SELECT 1 FROM "Block" b WHERE b."businessId" = NEW."businessId" AND b."start" < NEW."end" AND b."end" > NEW."start") THEN
      RAISE EXCEPTION 'visit overlaps blocked time' USING ERRCODE = 'exclusion_violation';
    END IF;
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER "BookingVisit_outside_blocks" ON "BookingVisit";
CREATE TRIGGER "BookingVisit_outside_blocks" BEFORE INSERT OR UPDATE ON "BookingVisit" FOR EACH ROW EXECUTE FUNCTION porchlight_visit_outside_blocks();
