-- AlterEnum
ALTER TYPE "BookingStatus" ADD VALUE 'lapsed';

-- AlterTable
ALTER TABLE "Booking" ADD COLUMN     "holdUntil" TIMESTAMPTZ(3),
ADD COLUMN     "requesterHash" TEXT;

-- AlterTable
ALTER TABLE "BookingVisit" ADD COLUMN     "holdUntil" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "Event" (
    "position" BIGSERIAL NOT NULL,
    "txid" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint,
    "type" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "bookingId" TEXT,
    "inquiryId" TEXT,
    "clientName" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("position")
);

-- CreateIndex
CREATE INDEX "Event_businessId_txid_position_idx" ON "Event"("businessId", "txid", "position");

-- CreateIndex
CREATE INDEX "Booking_status_holdUntil_idx" ON "Booking"("status", "holdUntil");

-- CreateIndex
CREATE INDEX "Booking_customerEmail_status_idx" ON "Booking"("customerEmail", "status");

-- CreateIndex
CREATE INDEX "Booking_requesterHash_status_idx" ON "Booking"("requesterHash", "status");

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;
