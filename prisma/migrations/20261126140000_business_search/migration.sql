-- find_businesses: one full-text document per business (its name, the words people use for its
-- kind, and the names and descriptions of its menu and bookable services), kept by triggers in
-- the same transaction as the change, searched through a GIN index.

CREATE TABLE "BusinessSearch" (
  "businessId" TEXT NOT NULL,
  "document" tsvector NOT NULL,
  CONSTRAINT "BusinessSearch_pkey" PRIMARY KEY ("businessId"),
  CONSTRAINT "BusinessSearch_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "BusinessSearch_document_idx" ON "BusinessSearch" USING gin ("document");

-- What people call each kind of business, so "plumber", "salon" or "mechanic" find them.
CREATE FUNCTION porchlight_kind_words(kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind
    WHEN 'cleaning' THEN 'house cleaning cleaner cleaners maid maids home clean deep clean move-out move-in turnover'
    WHEN 'plumbing' THEN 'plumber plumbing leak drain clog toilet faucet water heater pipe sewer'
    WHEN 'hvac' THEN 'hvac heating air conditioning ac furnace heat pump cooling thermostat'
    WHEN 'auto_repair' THEN 'auto repair car mechanic garage vehicle brakes tires oil'
    WHEN 'beauty' THEN 'beauty salon hair haircut stylist barber nails spa'
    WHEN 'retail' THEN 'shop store retail'
    WHEN 'food' THEN 'food cafe restaurant bakery coffee'
    ELSE 'services'
  END
$$;

CREATE FUNCTION porchlight_business_search_refresh(ids text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "BusinessSearch" ("businessId", "document")
  SELECT b.id,
    setweight(to_tsvector('english', b.name), 'A') ||
    setweight(to_tsvector('english', porchlight_kind_words(b.kind::text)), 'B') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(s.name || ' ' || coalesce(s."group", ''), ' ') FROM "MenuService" s WHERE s."businessId" = b.id), '')), 'A') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(a.name, ' ') FROM "AppointmentService" a WHERE a."businessId" = b.id), '')), 'A') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(s.description, ' ') FROM "MenuService" s WHERE s."businessId" = b.id), '')), 'C')
  FROM "Business" b WHERE b.id = ANY(ids)
  ON CONFLICT ("businessId") DO UPDATE SET "document" = EXCLUDED."document"
$$;

CREATE FUNCTION porchlight_business_search_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM porchlight_business_search_refresh(ARRAY(SELECT DISTINCT "businessId" FROM old_rows));
  ELSE
    PERFORM porchlight_business_search_refresh(ARRAY(SELECT DISTINCT "businessId" FROM new_rows));
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION porchlight_business_search_business() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM porchlight_business_search_refresh(ARRAY[NEW.id]);
  RETURN NULL;
END $$;

-- Only a change of name or kind rewrites the document: counters and notes leave it alone.
CREATE TRIGGER "Business_search_insert" AFTER INSERT ON "Business" FOR EACH ROW EXECUTE FUNCTION porchlight_business_search_business();
CREATE TRIGGER "Business_search_update" AFTER UPDATE OF "name", "kind" ON "Business" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."kind" IS DISTINCT FROM NEW."kind") EXECUTE FUNCTION porchlight_business_search_business();
CREATE TRIGGER "MenuService_search_insert" AFTER INSERT ON "MenuService" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION porchlight_business_search_rows();
CREATE TRIGGER "MenuService_search_update" AFTER UPDATE ON "MenuService" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION porchlight_business_search_rows();
CREATE TRIGGER "MenuService_search_delete" AFTER DELETE ON "MenuService" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION porchlight_business_search_rows();
CREATE TRIGGER "AppointmentService_search_insert" AFTER INSERT ON "AppointmentService" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION porchlight_business_search_rows();
CREATE TRIGGER "AppointmentService_search_update" AFTER UPDATE ON "AppointmentService" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION porchlight_business_search_rows();
CREATE TRIGGER "AppointmentService_search_delete" AFTER DELETE ON "AppointmentService" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION porchlight_business_search_rows();

SELECT porchlight_business_search_refresh(ARRAY(SELECT id FROM "Business"));
