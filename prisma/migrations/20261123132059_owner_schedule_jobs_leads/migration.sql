-- CreateEnum
CREATE TYPE "LeadStatus" AS ENUM ('quoted', 'booked', 'lost');

-- CreateTable
CREATE TABLE "OwnJob" (
    "bookingId" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "leadId" TEXT,

    CONSTRAINT "OwnJob_pkey" PRIMARY KEY ("bookingId")
);

-- CreateTable
CREATE TABLE "Lead" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "status" "LeadStatus" NOT NULL DEFAULT 'quoted',
    "zip" TEXT NOT NULL,
    "job" JSONB NOT NULL,
    "quoteCents" INTEGER NOT NULL,
    "quoteMinutes" INTEGER NOT NULL,
    "costCents" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "customerName" TEXT,
    "customerEmail" TEXT,
    "customerPhone" TEXT,
    "phoneKey" TEXT,
    "notes" TEXT,
    "quotedAt" TIMESTAMPTZ(3) NOT NULL,
    "followUps" INTEGER NOT NULL DEFAULT 0,
    "lastFollowUpAt" TIMESTAMPTZ(3),
    "repliedAt" TIMESTAMPTZ(3),
    "badReason" TEXT,
    "flaggedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Lead_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationsRead" (
    "businessId" TEXT NOT NULL,
    "txid" BIGINT NOT NULL,
    "position" BIGINT NOT NULL,

    CONSTRAINT "NotificationsRead_pkey" PRIMARY KEY ("businessId")
);

-- CreateIndex
CREATE UNIQUE INDEX "OwnJob_leadId_key" ON "OwnJob"("leadId");

-- CreateIndex
CREATE INDEX "OwnJob_businessId_idx" ON "OwnJob"("businessId");

-- CreateIndex
CREATE INDEX "Lead_businessId_createdAt_idx" ON "Lead"("businessId", "createdAt");

-- CreateIndex
CREATE INDEX "Lead_businessId_status_quotedAt_idx" ON "Lead"("businessId", "status", "quotedAt");

-- CreateIndex
CREATE INDEX "Lead_businessId_phoneKey_idx" ON "Lead"("businessId", "phoneKey");

-- AddForeignKey
ALTER TABLE "OwnJob" ADD CONSTRAINT "OwnJob_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "Booking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OwnJob" ADD CONSTRAINT "OwnJob_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OwnJob" ADD CONSTRAINT "OwnJob_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "Lead"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Lead" ADD CONSTRAINT "Lead_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationsRead" ADD CONSTRAINT "NotificationsRead_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Blocked time and jobs never overlap. A new visit may not fall in a block, and a new block may
-- not cover a confirmed visit (pending holds are refused by the application, which knows the
-- service clock). Both raise exclusion_violation (23P01), the SQLSTATE the application already
-- reads as "that time is taken". Visits take a shared per-business lock and blocks an exclusive
-- one, held to commit: bookings never wait for each other here, while a block and a booking of
-- one business are serialised, so each check sees the other's committed rows (READ COMMITTED
-- gives every statement of the function a fresh snapshot).
CREATE FUNCTION porchlight_visit_outside_blocks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."active" THEN
    PERFORM pg_advisory_xact_lock_shared(hashtext('schedule:' || NEW."businessId"));
    IF EXISTS (SELECT 1 FROM "Block" b WHERE b."businessId" = NEW."businessId" AND b."start" < NEW."end" AND b."end" > NEW."start") THEN
      RAISE EXCEPTION 'visit overlaps blocked time' USING ERRCODE = 'exclusion_violation';
    END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE FUNCTION porchlight_block_clear_of_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('schedule:' || NEW."businessId"));
  IF EXISTS (
    SELECT 1 FROM "BookingVisit" v
    WHERE v."businessId" = NEW."businessId" AND v."active" AND v."holdUntil" IS NULL AND v."start" < NEW."end" AND v."end" > NEW."start"
  ) THEN
    RAISE EXCEPTION 'block covers a confirmed job' USING ERRCODE = 'exclusion_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "BookingVisit_outside_blocks" BEFORE INSERT ON "BookingVisit" FOR EACH ROW EXECUTE FUNCTION porchlight_visit_outside_blocks();
CREATE TRIGGER "Block_clear_of_jobs" BEFORE INSERT OR UPDATE ON "Block" FOR EACH ROW EXECUTE FUNCTION porchlight_block_clear_of_jobs();

-- call_brief finds a caller's bookings and conversations by the phone number's last ten digits
-- (US national number) before libphonenumber-js confirms each match.
CREATE INDEX "Booking_phone_digits_idx" ON "Booking" ("businessId", right(regexp_replace("customerPhone", '[^0-9]', '', 'g'), 10)) WHERE "customerPhone" IS NOT NULL;
CREATE INDEX "Conversation_phone_digits_idx" ON "Conversation" ("businessId", right(regexp_replace("customerPhone", '[^0-9]', '', 'g'), 10)) WHERE "customerPhone" IS NOT NULL;
