-- A customer's booking is written by one statement (src/bookings/book.ts), which PostgreSQL runs
-- as a transaction of its own: no BEGIN and COMMIT round trips around it. What must happen
-- before its inserts is done here, in functions it calls first.

-- Visits whose hold lapsed still sit in the exclusion constraint until released: those in the
-- way of these starts are released (every booking flow, customers' and owners').
CREATE FUNCTION porchlight_release_lapsed(business TEXT, starts TIMESTAMPTZ[], duration INTERVAL, at TIMESTAMPTZ) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "BookingVisit" SET "active" = false
  WHERE "businessId" = business AND "active" AND "holdUntil" <= at
    AND EXISTS (SELECT 1 FROM unnest(starts) AS s(t) WHERE "start" < s.t + duration AND "end" > s.t);
END $$;

-- The unconfirmed bookings of a customer (e-mail or phone: contact_key) and of a requester,
-- each counted only as far as its limit through the pending_* partial indexes. The customer's
-- advisory lock is taken first, so two concurrent bookings cannot both take their last place:
-- the function is VOLATILE, so in READ COMMITTED each of its queries takes a new snapshot,
-- which sees the bookings committed by whoever held the lock before. The requester's count
-- takes no lock: one assistant books for many customers at once, and serialising all of them
-- would cost more than a burst passing that wider limit by a few. Within both limits, lapsed
-- visits in the way of the starts are released.
CREATE FUNCTION porchlight_pending_place(
  contact_key TEXT, requester TEXT, at TIMESTAMPTZ, per_contact INT, per_requester INT,
  business TEXT, starts TIMESTAMPTZ[], duration INTERVAL,
  OUT contact INT, OUT requested INT
) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('pending:' || contact_key));
  SELECT (SELECT count(*) FROM (SELECT 1 FROM "Booking" WHERE "status" = 'pending' AND "customerEmail" = contact_key
            AND "holdUntil" > at LIMIT per_contact) e)
       + (SELECT count(*) FROM (SELECT 1 FROM "Booking" WHERE "status" = 'pending' AND "customerPhone" = contact_key
            AND "holdUntil" > at LIMIT per_contact) p),
         (SELECT count(*) FROM (SELECT 1 FROM "Booking" WHERE "status" = 'pending' AND "requesterHash" = requester
            AND "holdUntil" > at LIMIT per_requester) r)
    INTO contact, requested;
  IF contact < per_contact AND requested < per_requester THEN
    PERFORM porchlight_release_lapsed(business, starts, duration, at);
  END IF;
END $$;
