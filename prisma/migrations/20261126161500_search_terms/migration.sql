-- find_businesses tells what a query matched: a business's name (weight A), only the words
-- people use for its kind (B), or what it offers (C: its menu and bookable services, or for
-- cleaners and trades without a menu what every one of them does; D: service descriptions).
-- Kind words no longer claim services: every beauty business was a "barber", "nails" and "spa",
-- so a day spa turned up for "barber" with no service to show.

-- What people call each kind of business ("salon", "mechanic", "plumber"): a type-level match.
CREATE OR REPLACE FUNCTION porchlight_kind_words(kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind
    WHEN 'cleaning' THEN 'house cleaning cleaner cleaners maid maids housekeeping'
    WHEN 'plumbing' THEN 'plumber plumbing'
    WHEN 'hvac' THEN 'hvac heating air conditioning'
    WHEN 'auto_repair' THEN 'auto repair car mechanic garage'
    WHEN 'beauty' THEN 'beauty salon'
    WHEN 'retail' THEN 'shop store retail'
    WHEN 'food' THEN 'food'
    ELSE 'services'
  END
$$;

-- What every business of a kind without a service menu does (its find_cleaners or
-- find_service_call jobs): matched as its services.
CREATE FUNCTION porchlight_kind_offers(kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind
    WHEN 'cleaning' THEN 'house cleaning home clean standard clean deep clean move-out clean move-in clean turnover clean apartment cleaning'
    WHEN 'plumbing' THEN 'leak drain clog toilet faucet water heater pipe sewer garbage disposal'
    WHEN 'hvac' THEN 'heating air conditioning ac furnace heat pump cooling thermostat'
    ELSE ''
  END
$$;

CREATE OR REPLACE FUNCTION porchlight_business_search_refresh(ids text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "BusinessSearch" ("businessId", "document")
  SELECT b.id,
    setweight(to_tsvector('english', b.name), 'A') ||
    setweight(to_tsvector('english', porchlight_kind_words(b.kind::text)), 'B') ||
    setweight(to_tsvector('english', porchlight_kind_offers(b.kind::text)), 'C') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(s.name || ' ' || coalesce(s."group", ''), ' ') FROM "MenuService" s WHERE s."businessId" = b.id), '')), 'C') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(a.name, ' ') FROM "AppointmentService" a WHERE a."businessId" = b.id), '')), 'C') ||
    setweight(to_tsvector('english', coalesce((SELECT string_agg(s.description, ' ') FROM "MenuService" s WHERE s."businessId" = b.id), '')), 'D')
  FROM "Business" b WHERE b.id = ANY(ids)
  ON CONFLICT ("businessId") DO UPDATE SET "document" = EXCLUDED."document"
$$;

SELECT porchlight_business_search_refresh(ARRAY(SELECT id FROM "Business"));
