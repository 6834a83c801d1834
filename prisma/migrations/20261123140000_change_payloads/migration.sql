-- Change notices name the business they concern, so instances refresh one business instead of
-- whole tables. Payload: "<scope>:<businessId>", scope catalog (Business, WeeklyHours,
-- ServiceZip, BusinessLink) or schedule (BookingVisit, Block). Row triggers; PostgreSQL delivers
-- identical payloads of one transaction once, at commit. TRUNCATE names no rows: "reset".
DROP TRIGGER "Business_notify" ON "Business";
DROP TRIGGER "WeeklyHours_notify" ON "WeeklyHours";
DROP TRIGGER "ServiceZip_notify" ON "ServiceZip";
DROP TRIGGER "BusinessLink_notify" ON "BusinessLink";
DROP TRIGGER "BookingVisit_notify" ON "BookingVisit";
DROP TRIGGER "Block_notify" ON "Block";
DROP FUNCTION porchlight_notify_catalog();
DROP FUNCTION porchlight_notify_schedule();

CREATE FUNCTION porchlight_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
-- Each record field is read in a branch of its own: PL/pgSQL resolves every field an
-- expression names, and Business rows have no "businessId".
BEGIN
  IF TG_TABLE_NAME = 'Business' THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM pg_notify('porchlight_changes', TG_ARGV[0] || ':' || OLD."id");
    ELSE
      PERFORM pg_notify('porchlight_changes', TG_ARGV[0] || ':' || NEW."id");
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('porchlight_changes', TG_ARGV[0] || ':' || OLD."businessId");
  END IF;
  -- An update that moves a row to another business changes both.
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('porchlight_changes', TG_ARGV[0] || ':' || NEW."businessId");
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION porchlight_notify_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('porchlight_changes', 'reset');
  RETURN NULL;
END $$;

CREATE TRIGGER "Business_notify" AFTER INSERT OR UPDATE OR DELETE ON "Business" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('catalog');
CREATE TRIGGER "WeeklyHours_notify" AFTER INSERT OR UPDATE OR DELETE ON "WeeklyHours" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('catalog');
CREATE TRIGGER "ServiceZip_notify" AFTER INSERT OR UPDATE OR DELETE ON "ServiceZip" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('catalog');
CREATE TRIGGER "BusinessLink_notify" AFTER INSERT OR UPDATE OR DELETE ON "BusinessLink" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('catalog');
CREATE TRIGGER "BookingVisit_notify" AFTER INSERT OR UPDATE OR DELETE ON "BookingVisit" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('schedule');
CREATE TRIGGER "Block_notify" AFTER INSERT OR UPDATE OR DELETE ON "Block" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('schedule');
CREATE TRIGGER "Business_reset" AFTER TRUNCATE ON "Business" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_reset();
CREATE TRIGGER "BookingVisit_reset" AFTER TRUNCATE ON "BookingVisit" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_reset();
CREATE TRIGGER "Block_reset" AFTER TRUNCATE ON "Block" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_reset();

-- Menu businesses' rows ("menu:<businessId>"); staff hours and time off name their staff
-- member's business.
DROP TRIGGER "ServiceMenu_notify" ON "ServiceMenu";
DROP TRIGGER "MenuService_notify" ON "MenuService";
DROP TRIGGER "MenuAddOn_notify" ON "MenuAddOn";
DROP TRIGGER "MenuScent_notify" ON "MenuScent";
DROP TRIGGER "StaffMember_notify" ON "StaffMember";
DROP TRIGGER "StaffHours_notify" ON "StaffHours";
DROP TRIGGER "StaffTimeOff_notify" ON "StaffTimeOff";
DROP TRIGGER "Visit_notify" ON "Visit";
DROP FUNCTION porchlight_notify_menus();

CREATE FUNCTION porchlight_notify_staff() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  staff_business text;
BEGIN
  SELECT "businessId" INTO staff_business FROM "StaffMember"
    WHERE "id" = CASE WHEN TG_OP = 'DELETE' THEN OLD."staffId" ELSE NEW."staffId" END;
  -- A staff member deleted with its rows has notified for its business already.
  IF staff_business IS NOT NULL THEN
    PERFORM pg_notify('porchlight_changes', 'menu:' || staff_business);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "ServiceMenu_notify" AFTER INSERT OR UPDATE OR DELETE ON "ServiceMenu" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "MenuService_notify" AFTER INSERT OR UPDATE OR DELETE ON "MenuService" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "MenuAddOn_notify" AFTER INSERT OR UPDATE OR DELETE ON "MenuAddOn" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "MenuScent_notify" AFTER INSERT OR UPDATE OR DELETE ON "MenuScent" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "StaffMember_notify" AFTER INSERT OR UPDATE OR DELETE ON "StaffMember" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "Visit_notify" AFTER INSERT OR UPDATE OR DELETE ON "Visit" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "StaffHours_notify" AFTER INSERT OR UPDATE OR DELETE ON "StaffHours" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_staff();
CREATE TRIGGER "StaffTimeOff_notify" AFTER INSERT OR UPDATE OR DELETE ON "StaffTimeOff" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_staff();
