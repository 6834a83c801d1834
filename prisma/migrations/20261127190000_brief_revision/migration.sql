-- call_brief: a revision per business of what its brief shows of the business itself (the
-- business's name, area, phone, time zone, prices and notes, its hours, ZIPs, menu, appointment
-- services, published page, instructions and front desk), so an instance that worked that part
-- out before knows it is current from one indexed read in the brief's statement
-- (owners/call-brief.ts). Bumped at commit as the schedule's revision is (migration
-- schedule_revision): by every writer, once per transaction.
CREATE TABLE "BriefRevision" (
    "businessId" TEXT NOT NULL,
    "revision" BIGINT NOT NULL,
    "txid" BIGINT NOT NULL,

    CONSTRAINT "BriefRevision_pkey" PRIMARY KEY ("businessId")
);

CREATE FUNCTION porchlight_brief_bump(business TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tx BIGINT := (pg_current_xact_id()::text)::bigint;
BEGIN
  INSERT INTO "BriefRevision" AS r ("businessId", "revision", "txid") VALUES (business, 1, tx)
  ON CONFLICT ("businessId") DO UPDATE SET "revision" = r."revision" + 1, "txid" = tx WHERE r."txid" <> tx;
END $$;

CREATE FUNCTION porchlight_brief_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM porchlight_brief_bump(OLD."businessId"); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."businessId" IS DISTINCT FROM OLD."businessId") THEN
    PERFORM porchlight_brief_bump(NEW."businessId");
  END IF;
  RETURN NULL;
END $$;

-- The business's own row, the page and the front desk: only the columns the brief shows, so
-- their other writes (a draft, the answering hours) keep the revision.
CREATE FUNCTION porchlight_brief_business_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM porchlight_brief_bump(NEW."id");
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "Business_brief" AFTER UPDATE OF "slug", "name", "kind", "city", "state", "phone", "timeZone", "priceList", "customerNotes" ON "Business"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_business_changed();
CREATE CONSTRAINT TRIGGER "WeeklyHours_brief" AFTER INSERT OR UPDATE OR DELETE ON "WeeklyHours" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_changed();
CREATE CONSTRAINT TRIGGER "ServiceZip_brief" AFTER INSERT OR UPDATE OR DELETE ON "ServiceZip" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_changed();
CREATE CONSTRAINT TRIGGER "MenuService_brief" AFTER INSERT OR UPDATE OR DELETE ON "MenuService" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_changed();
CREATE CONSTRAINT TRIGGER "MenuAddOn_brief" AFTER INSERT OR UPDATE OR DELETE ON "MenuAddOn" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_changed();
CREATE CONSTRAINT TRIGGER "AppointmentService_brief" AFTER INSERT OR UPDATE OR DELETE ON "AppointmentService" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_changed();
CREATE CONSTRAINT TRIGGER "Receptionist_brief" AFTER INSERT OR UPDATE OF "published", "instructions" OR DELETE ON "Receptionist" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_changed();
CREATE CONSTRAINT TRIGGER "FrontDesk_brief" AFTER INSERT OR UPDATE OF "greeting", "tone", "handOff", "handOffPhone" OR DELETE ON "FrontDesk" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION porchlight_brief_changed();
