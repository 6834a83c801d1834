-- CreateEnum
CREATE TYPE "BusinessKind" AS ENUM ('cleaning', 'plumbing', 'hvac', 'auto_repair', 'beauty', 'retail', 'food', 'services');

-- CreateEnum
CREATE TYPE "BookingKind" AS ENUM ('cleaning', 'service_call');

-- CreateEnum
CREATE TYPE "BookingStatus" AS ENUM ('pending', 'confirmed', 'cancelled', 'done', 'no_show');

-- CreateEnum
CREATE TYPE "MessageAuthor" AS ENUM ('customer', 'business');

-- CreateTable
CREATE TABLE "Owner" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Owner_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Business" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "BusinessKind" NOT NULL,
    "timeZone" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "zip" TEXT NOT NULL,
    "phone" TEXT,
    "email" TEXT,
    "website" TEXT,
    "textsCustomers" BOOLEAN NOT NULL DEFAULT false,
    "priceList" JSONB NOT NULL,
    "minNoticeMinutes" INTEGER NOT NULL DEFAULT 120,
    "customerNotes" TEXT NOT NULL DEFAULT '',
    "jobsConfirmedDone" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ownerId" TEXT,

    CONSTRAINT "Business_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WeeklyHours" (
    "businessId" TEXT NOT NULL,
    "weekday" INTEGER NOT NULL,
    "startMinute" INTEGER NOT NULL,
    "endMinute" INTEGER NOT NULL,

    CONSTRAINT "WeeklyHours_pkey" PRIMARY KEY ("businessId","weekday")
);

-- CreateTable
CREATE TABLE "ServiceZip" (
    "businessId" TEXT NOT NULL,
    "zip" TEXT NOT NULL,

    CONSTRAINT "ServiceZip_pkey" PRIMARY KEY ("businessId","zip")
);

-- CreateTable
CREATE TABLE "BusinessLink" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "rating" DOUBLE PRECISION,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "BusinessLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Block" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3) NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "Block_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Booking" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "kind" "BookingKind" NOT NULL,
    "status" "BookingStatus" NOT NULL DEFAULT 'pending',
    "manageTokenHash" TEXT NOT NULL,
    "confirmTokenHash" TEXT NOT NULL,
    "priceCents" INTEGER NOT NULL,
    "frequency" TEXT NOT NULL DEFAULT 'once',
    "bedrooms" INTEGER,
    "bathrooms" DOUBLE PRECISION,
    "cleanType" TEXT,
    "sqft" INTEGER,
    "addOns" TEXT[],
    "pets" BOOLEAN NOT NULL DEFAULT false,
    "trade" TEXT,
    "issue" TEXT,
    "details" TEXT,
    "address" TEXT NOT NULL,
    "zip" TEXT NOT NULL,
    "notes" TEXT,
    "customerName" TEXT NOT NULL,
    "customerEmail" TEXT,
    "customerPhone" TEXT,
    "clientName" TEXT,
    "credentialId" TEXT,
    "late" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmedAt" TIMESTAMPTZ(3),
    "cancelledAt" TIMESTAMPTZ(3),

    CONSTRAINT "Booking_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BookingVisit" (
    "id" TEXT NOT NULL,
    "bookingId" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3) NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "BookingVisit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BookingMessage" (
    "id" TEXT NOT NULL,
    "bookingId" TEXT NOT NULL,
    "author" "MessageAuthor" NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BookingMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxMessage" (
    "id" TEXT NOT NULL,
    "channel" TEXT NOT NULL DEFAULT 'email',
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "bookingId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,

    CONSTRAINT "OutboxMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Owner_email_key" ON "Owner"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Business_slug_key" ON "Business"("slug");

-- CreateIndex
CREATE INDEX "Business_kind_idx" ON "Business"("kind");

-- CreateIndex
CREATE INDEX "ServiceZip_zip_idx" ON "ServiceZip"("zip");

-- CreateIndex
CREATE INDEX "BusinessLink_businessId_idx" ON "BusinessLink"("businessId");

-- CreateIndex
CREATE INDEX "Block_businessId_start_idx" ON "Block"("businessId", "start");

-- CreateIndex
CREATE UNIQUE INDEX "Booking_manageTokenHash_key" ON "Booking"("manageTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "Booking_confirmTokenHash_key" ON "Booking"("confirmTokenHash");

-- CreateIndex
CREATE INDEX "Booking_businessId_createdAt_idx" ON "Booking"("businessId", "createdAt");

-- CreateIndex
CREATE INDEX "Booking_credentialId_createdAt_idx" ON "Booking"("credentialId", "createdAt");

-- CreateIndex
CREATE INDEX "BookingVisit_bookingId_idx" ON "BookingVisit"("bookingId");

-- CreateIndex
CREATE INDEX "BookingVisit_businessId_start_idx" ON "BookingVisit"("businessId", "start");

-- CreateIndex
CREATE INDEX "BookingMessage_bookingId_createdAt_idx" ON "BookingMessage"("bookingId", "createdAt");

-- CreateIndex
CREATE INDEX "OutboxMessage_createdAt_idx" ON "OutboxMessage"("createdAt");

-- AddForeignKey
ALTER TABLE "Business" ADD CONSTRAINT "Business_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Owner"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WeeklyHours" ADD CONSTRAINT "WeeklyHours_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServiceZip" ADD CONSTRAINT "ServiceZip_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BusinessLink" ADD CONSTRAINT "BusinessLink_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Block" ADD CONSTRAINT "Block_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Booking" ADD CONSTRAINT "Booking_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BookingVisit" ADD CONSTRAINT "BookingVisit_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "Booking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BookingVisit" ADD CONSTRAINT "BookingVisit_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BookingMessage" ADD CONSTRAINT "BookingMessage_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "Booking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma cannot model it): active visits of one business never overlap.
-- Half-open ranges, so back-to-back visits are allowed.
CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE "BookingVisit" ADD CONSTRAINT "BookingVisit_no_overlap"
  EXCLUDE USING gist ("businessId" WITH =, tstzrange("start", "end", '[)') WITH &&)
  WHERE ("active");
ALTER TABLE "BookingVisit" ADD CONSTRAINT "BookingVisit_end_after_start" CHECK ("end" > "start");
ALTER TABLE "Block" ADD CONSTRAINT "Block_end_after_start" CHECK ("end" > "start");
