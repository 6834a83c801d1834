-- Visits and appointments are closed like bookings once they have ended: confirm_job_done
-- (done) or report_no_show (no_show).
ALTER TABLE "Visit" ADD COLUMN "outcome" TEXT, ADD COLUMN "outcomeAt" TIMESTAMPTZ(3);
ALTER TABLE "Appointment" ADD COLUMN "outcome" TEXT, ADD COLUMN "outcomeAt" TIMESTAMPTZ(3);
ALTER TABLE "Visit" ADD CONSTRAINT "Visit_outcome" CHECK ("outcome" IS NULL OR ("outcome" IN ('done', 'no_show') AND "status" = 'confirmed' AND "outcomeAt" IS NOT NULL));
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_outcome" CHECK ("outcome" IS NULL OR ("outcome" IN ('done', 'no_show') AND "status" = 'confirmed' AND "outcomeAt" IS NOT NULL));

-- One calendar: blocked time never covers a confirmed entry of any kind. As for BookingVisit
-- (migration 20261123132059): a block takes the business's schedule lock exclusively and checks
-- confirmed booking visits, confirmed menu visits and confirmed appointments; a confirmed visit
-- or an appointment taking time takes it shared and checks blocks. Held to commit, so a block
-- and a confirmation of one business are serialised and the second sees the first (READ
-- COMMITTED gives each statement a fresh snapshot); writers of one kind never wait for each
-- other here. Holds still waiting for payment or confirmation are refused by the application,
-- which knows the service clock. Both raise exclusion_violation (23P01): "that time is taken".
CREATE OR REPLACE FUNCTION porchlight_block_clear_of_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('schedule:' || NEW."businessId"));
  IF EXISTS (
    SELECT 1 FROM "BookingVisit" v
    WHERE v."businessId" = NEW."businessId" AND v."active" AND v."holdUntil" IS NULL AND v."start" < NEW."end" AND v."end" > NEW."start"
  ) OR EXISTS (
    SELECT 1 FROM "Visit" v
    WHERE v."businessId" = NEW."businessId" AND v."status" = 'confirmed' AND v."start" < NEW."end" AND v."end" > NEW."start"
  ) OR EXISTS (
    SELECT 1 FROM "Appointment" a
    WHERE a."businessId" = NEW."businessId" AND a."holdsTime" AND a."status" = 'confirmed' AND a."start" < NEW."end" AND a."end" > NEW."start"
  ) THEN
    RAISE EXCEPTION 'block covers a confirmed job' USING ERRCODE = 'exclusion_violation';
  END IF;
  RETURN NEW;
END $$;

-- Only a write that puts an entry on the calendar (or moves it) is checked, so closing or
-- cancelling one never trips over a block.
CREATE FUNCTION porchlight_menu_visit_outside_blocks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'confirmed' AND NEW."start" IS NOT NULL AND (
    TG_OP = 'INSERT' OR OLD."status" IS DISTINCT FROM 'confirmed' OR OLD."start" IS DISTINCT FROM NEW."start" OR OLD."end" IS DISTINCT FROM NEW."end"
  ) THEN
    PERFORM pg_advisory_xact_lock_shared(hashtext('schedule:' || NEW."businessId"));
    IF EXISTS (SELECT 1 FROM "Block" b WHERE b."businessId" = NEW."businessId" AND b."start" < NEW."end" AND b."end" > NEW."start") THEN
      RAISE EXCEPTION 'visit overlaps blocked time' USING ERRCODE = 'exclusion_violation';
    END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE FUNCTION porchlight_appointment_outside_blocks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."holdsTime" AND (
    TG_OP = 'INSERT' OR NOT OLD."holdsTime" OR OLD."start" IS DISTINCT FROM NEW."start" OR OLD."end" IS DISTINCT FROM NEW."end"
  ) THEN
    PERFORM pg_advisory_xact_lock_shared(hashtext('schedule:' || NEW."businessId"));
    IF EXISTS (SELECT 1 FROM "Block" b WHERE b."businessId" = NEW."businessId" AND b."start" < NEW."end" AND b."end" > NEW."start") THEN
      RAISE EXCEPTION 'appointment overlaps blocked time' USING ERRCODE = 'exclusion_violation';
    END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "Visit_outside_blocks" BEFORE INSERT OR UPDATE ON "Visit" FOR EACH ROW EXECUTE FUNCTION porchlight_menu_visit_outside_blocks();
CREATE TRIGGER "Appointment_outside_blocks" BEFORE INSERT OR UPDATE ON "Appointment" FOR EACH ROW EXECUTE FUNCTION porchlight_appointment_outside_blocks();

-- The schedule reads menu visits and appointments by business and time.
CREATE INDEX "Visit_businessId_start_confirmed_idx" ON "Visit" ("businessId", "start") WHERE "status" = 'confirmed';
