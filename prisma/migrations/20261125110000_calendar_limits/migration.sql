-- AlterTable
ALTER TABLE "Appointment" ADD COLUMN     "contactKey" TEXT,
ADD COLUMN     "requesterHash" TEXT;

-- AlterTable
ALTER TABLE "Visit" ADD COLUMN     "contactKey" TEXT,
ADD COLUMN     "replyTokenSealed" TEXT,
ADD COLUMN     "requesterHash" TEXT;

-- Hand-written (Prisma cannot model partial indexes). request_visit, book_visit and
-- book_appointment count what the caller (requester) and the customer (contact) already hold
-- before they add one: open requests, unpaid holds still running, and bookings still ahead.
-- Each count reads through one of these indexes, over live rows of that kind only, and only as
-- far as its limit, so it costs a handful of rows however many visits and appointments exist.
CREATE INDEX "Visit_pending_requester_idx" ON "Visit" ("requesterHash", "businessId") WHERE "status" = 'pending';
CREATE INDEX "Visit_confirmed_requester_idx" ON "Visit" ("requesterHash", "start") WHERE "status" = 'confirmed';
CREATE INDEX "Visit_pending_contact_idx" ON "Visit" ("contactKey", "businessId") WHERE "status" = 'pending';
CREATE INDEX "Visit_confirmed_contact_idx" ON "Visit" ("contactKey", "businessId", "start") WHERE "status" = 'confirmed';
CREATE INDEX "Appointment_unpaid_requester_idx" ON "Appointment" ("requesterHash", "holdUntil") WHERE "status" = 'awaiting_payment';
CREATE INDEX "Appointment_confirmed_requester_idx" ON "Appointment" ("requesterHash", "start") WHERE "status" = 'confirmed';
CREATE INDEX "Appointment_unpaid_contact_idx" ON "Appointment" ("contactKey", "businessId", "holdUntil") WHERE "status" = 'awaiting_payment';
CREATE INDEX "Appointment_confirmed_contact_idx" ON "Appointment" ("contactKey", "businessId", "start") WHERE "status" = 'confirmed';
-- A business's unpaid holds on one day are read through "Appointment_businessId_start_idx" (that
-- day's appointments) or "Appointment_status_holdUntil_idx" (holds still running), whichever the
-- planner finds fewer.
