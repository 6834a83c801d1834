-- A booking counts the caller's unconfirmed holds (per e-mail or phone, per requester) before it
-- writes. Over (status, holdUntil) that count read every pending booking; these partial indexes
-- hold pending bookings only, keyed by who holds them, so it reads a handful of rows.
DROP INDEX "Booking_requesterHash_status_idx";
CREATE INDEX "Booking_pending_requester_idx" ON "Booking" ("requesterHash", "holdUntil") WHERE "status" = 'pending';
CREATE INDEX "Booking_pending_email_idx" ON "Booking" ("customerEmail", "holdUntil") WHERE "status" = 'pending';
CREATE INDEX "Booking_pending_phone_idx" ON "Booking" ("customerPhone", "holdUntil") WHERE "status" = 'pending';
-- The hold sweep's index, over pending bookings only; with it, no index on (status, holdUntil)
-- is left for the planner to prefer for the counts above while statistics lag behind.
DROP INDEX "Booking_status_holdUntil_idx";
CREATE INDEX "Booking_pending_hold_idx" ON "Booking" ("holdUntil") WHERE "status" = 'pending';
