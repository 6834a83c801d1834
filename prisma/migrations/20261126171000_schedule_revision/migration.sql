-- schedule: a revision per business, bumped by every transaction that changes what the owner's
-- schedule shows (its entries of every kind with their contact, blocks, hours, notifications and
-- notes), so a cached page is known current with one indexed read (owners/schedule-cache.ts).
-- The triggers are in the database, so every writer bumps it: each operation, another instance,
-- a script or psql. They are deferred to commit, so a transaction holds the revision's row lock
-- only while it commits, and bump it once however many rows it wrote.
CREATE TABLE "ScheduleRevision" (
    "businessId" TEXT NOT NULL,
    "revision" BIGINT NOT NULL,
    "txid" BIGINT NOT NULL,

    CONSTRAINT "ScheduleRevision_pkey" PRIMARY KEY ("businessId")
);

CREATE FUNCTION porchlight_schedule_bump(business TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tx BIGINT := (pg_current_xact_id()::text)::bigint;
BEGIN
  INSERT INTO "ScheduleRevision" AS r ("businessId", "revision", "txid") VALUES (business, 1, tx)
  ON CONFLICT ("businessId") DO UPDATE SET "revision" = r."revision" + 1, "txid" = tx WHERE r."txid" <> tx;
END $$;

CREATE FUNCTION porchlight_schedule_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD."businessId" IS NOT NULL THEN PERFORM porchlight_schedule_bump(OLD."businessId"); END IF;
  IF TG_OP <> 'DELETE' AND NEW."businessId" IS NOT NULL AND (TG_OP = 'INSERT' OR NEW."businessId" IS DISTINCT FROM OLD."businessId") THEN
    PERFORM porchlight_schedule_bump(NEW."businessId");
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "Booking_schedule" AFTER INSERT OR UPDATE OR DELETE ON "Booking" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "BookingVisit_schedule" AFTER INSERT OR UPDATE OR DELETE ON "BookingVisit" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "OwnJob_schedule" AFTER INSERT OR UPDATE OR DELETE ON "OwnJob" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "Visit_schedule" AFTER INSERT OR UPDATE OR DELETE ON "Visit" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "Appointment_schedule" AFTER INSERT OR UPDATE OR DELETE ON "Appointment" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "Conversation_schedule" AFTER INSERT OR UPDATE OR DELETE ON "Conversation" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "Block_schedule" AFTER INSERT OR UPDATE OR DELETE ON "Block" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "WeeklyHours_schedule" AFTER INSERT OR UPDATE OR DELETE ON "WeeklyHours" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "Event_schedule" AFTER INSERT OR UPDATE OR DELETE ON "Event" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "NotificationsRead_schedule" AFTER INSERT OR UPDATE OR DELETE ON "NotificationsRead" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
CREATE CONSTRAINT TRIGGER "OwnerNote_schedule" AFTER INSERT OR UPDATE OR DELETE ON "OwnerNote" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_schedule_changed();
