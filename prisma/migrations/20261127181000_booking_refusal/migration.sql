-- A customer's booking is written with its COMMIT sent right behind it (bookings/book.ts), so a
-- booking over the limit of unconfirmed ones must fail its statement for the transaction to roll
-- back: SQLSTATE PB001, with the count reached as the detail.
CREATE FUNCTION porchlight_refuse_pending("pending" integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'too many pending bookings' USING ERRCODE = 'PB001', DETAIL = "pending"::text;
END $$;
