-- A booking's counts of unconfirmed holds (per e-mail, phone and requester) are planned once per
-- connection, often while these partial indexes are nearly empty and their statistics say so:
-- every index over pending bookings then looks as cheap as the right one, and a count read every
-- pending booking through another (measured: the phone and requester counts scanned the e-mail
-- index). Each count index now holds only rows with its own key, and the hold index only rows
-- with a hold; the counts test the hold with coalesce, which implies neither, so each count can
-- be served by its own index alone.
DROP INDEX "Booking_pending_requester_idx";
DROP INDEX "Booking_pending_email_idx";
DROP INDEX "Booking_pending_phone_idx";
DROP INDEX "Booking_pending_hold_idx";
CREATE INDEX "Booking_pending_requester_idx" ON "Booking" ("requesterHash", "holdUntil") WHERE "status" = 'pending' AND "requesterHash" IS NOT NULL;
CREATE INDEX "Booking_pending_email_idx" ON "Booking" ("customerEmail", "holdUntil") WHERE "status" = 'pending' AND "customerEmail" IS NOT NULL;
CREATE INDEX "Booking_pending_phone_idx" ON "Booking" ("customerPhone", "holdUntil") WHERE "status" = 'pending' AND "customerPhone" IS NOT NULL;
CREATE INDEX "Booking_pending_hold_idx" ON "Booking" ("holdUntil") WHERE "status" = 'pending' AND "holdUntil" IS NOT NULL;
