-- CreateEnum
CREATE TYPE "MenuPriceKind" AS ENUM ('fixed', 'from', 'confirm');

-- CreateEnum
CREATE TYPE "VisitStatus" AS ENUM ('pending', 'confirmed', 'cancelled');

-- CreateTable
CREATE TABLE "ServiceMenu" (
    "businessId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "schedulingEnabled" BOOLEAN NOT NULL DEFAULT false,
    "bufferMinutes" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ServiceMenu_pkey" PRIMARY KEY ("businessId")
);

-- CreateTable
CREATE TABLE "MenuService" (
    "businessId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "priceKind" "MenuPriceKind" NOT NULL,
    "priceCents" INTEGER,
    "durationMinutes" INTEGER,
    "group" TEXT,
    "addOnIds" TEXT[],
    "scentIds" TEXT[],

    CONSTRAINT "MenuService_pkey" PRIMARY KEY ("businessId","id")
);

-- CreateTable
CREATE TABLE "MenuAddOn" (
    "businessId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "priceCents" INTEGER,
    "durationMinutes" INTEGER,

    CONSTRAINT "MenuAddOn_pkey" PRIMARY KEY ("businessId","id")
);

-- CreateTable
CREATE TABLE "MenuScent" (
    "businessId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "MenuScent_pkey" PRIMARY KEY ("businessId","id")
);

-- CreateTable
CREATE TABLE "StaffMember" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "serviceIds" TEXT[],

    CONSTRAINT "StaffMember_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StaffHours" (
    "staffId" TEXT NOT NULL,
    "weekday" INTEGER NOT NULL,
    "startMinute" INTEGER NOT NULL,
    "endMinute" INTEGER NOT NULL,

    CONSTRAINT "StaffHours_pkey" PRIMARY KEY ("staffId","weekday","startMinute")
);

-- CreateTable
CREATE TABLE "StaffTimeOff" (
    "id" TEXT NOT NULL,
    "staffId" TEXT NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "StaffTimeOff_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Visit" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "status" "VisitStatus" NOT NULL,
    "source" TEXT NOT NULL,
    "selections" JSONB NOT NULL,
    "serviceIds" TEXT[],
    "menuRevision" INTEGER NOT NULL,
    "estimateCents" INTEGER NOT NULL,
    "partial" BOOLEAN NOT NULL,
    "priceCents" INTEGER,
    "durationMinutes" INTEGER,
    "start" TIMESTAMPTZ(3),
    "end" TIMESTAMPTZ(3),
    "busyUntil" TIMESTAMPTZ(3),
    "technicianId" TEXT,
    "technicianName" TEXT,
    "preferredTechnician" TEXT,
    "preferredDate" TEXT,
    "preferredTime" TEXT,
    "firstVisit" TEXT,
    "note" TEXT,
    "customerName" TEXT NOT NULL,
    "requestKeyHash" TEXT NOT NULL,
    "requestFingerprint" TEXT NOT NULL,
    "clientName" TEXT,
    "credentialId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "confirmedAt" TIMESTAMPTZ(3),
    "cancelledAt" TIMESTAMPTZ(3),
    "cancelledBy" TEXT,

    CONSTRAINT "Visit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StaffMember_businessId_idx" ON "StaffMember"("businessId");

-- CreateIndex
CREATE INDEX "StaffTimeOff_staffId_start_idx" ON "StaffTimeOff"("staffId", "start");

-- CreateIndex
CREATE UNIQUE INDEX "Visit_conversationId_key" ON "Visit"("conversationId");

-- CreateIndex
CREATE UNIQUE INDEX "Visit_requestKeyHash_key" ON "Visit"("requestKeyHash");

-- CreateIndex
CREATE INDEX "Visit_businessId_status_start_idx" ON "Visit"("businessId", "status", "start");

-- CreateIndex
CREATE INDEX "Visit_technicianId_start_idx" ON "Visit"("technicianId", "start");

-- AddForeignKey
ALTER TABLE "ServiceMenu" ADD CONSTRAINT "ServiceMenu_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MenuService" ADD CONSTRAINT "MenuService_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "ServiceMenu"("businessId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MenuAddOn" ADD CONSTRAINT "MenuAddOn_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "ServiceMenu"("businessId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MenuScent" ADD CONSTRAINT "MenuScent_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "ServiceMenu"("businessId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StaffMember" ADD CONSTRAINT "StaffMember_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "ServiceMenu"("businessId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StaffHours" ADD CONSTRAINT "StaffHours_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "StaffMember"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StaffTimeOff" ADD CONSTRAINT "StaffTimeOff_staffId_fkey" FOREIGN KEY ("staffId") REFERENCES "StaffMember"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Visit" ADD CONSTRAINT "Visit_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "ServiceMenu"("businessId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Visit" ADD CONSTRAINT "Visit_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Visit" ADD CONSTRAINT "Visit_technicianId_fkey" FOREIGN KEY ("technicianId") REFERENCES "StaffMember"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Written by hand: constraints Prisma cannot model.
-- A technician is never in two confirmed visits at once: each confirmed visit takes its
-- technician from "start" to "busyUntil" (its end plus the business's buffer). Checked by the
-- database, so no two concurrent bookings or confirmations can both win.
CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE "Visit" ADD CONSTRAINT "Visit_technician_no_overlap"
  EXCLUDE USING gist ("technicianId" WITH =, tstzrange("start", "busyUntil", '[)') WITH &&)
  WHERE ("status" = 'confirmed');
ALTER TABLE "Visit" ADD CONSTRAINT "Visit_confirmed_has_time"
  CHECK ("status" <> 'confirmed' OR ("start" IS NOT NULL AND "end" > "start" AND "busyUntil" >= "end"));
ALTER TABLE "MenuService" ADD CONSTRAINT "MenuService_price_matches_kind"
  CHECK (("priceKind" = 'confirm') = ("priceCents" IS NULL));
ALTER TABLE "MenuService" ADD CONSTRAINT "MenuService_amounts" CHECK (("priceCents" IS NULL OR "priceCents" >= 0) AND ("durationMinutes" IS NULL OR "durationMinutes" > 0));
ALTER TABLE "MenuAddOn" ADD CONSTRAINT "MenuAddOn_amounts" CHECK (("priceCents" IS NULL OR "priceCents" >= 0) AND ("durationMinutes" IS NULL OR "durationMinutes" >= 0));
ALTER TABLE "StaffHours" ADD CONSTRAINT "StaffHours_window" CHECK ("weekday" BETWEEN 0 AND 6 AND "startMinute" >= 0 AND "endMinute" <= 1440 AND "endMinute" > "startMinute");
ALTER TABLE "StaffTimeOff" ADD CONSTRAINT "StaffTimeOff_end_after_start" CHECK ("end" > "start");

-- Instances keep menu businesses' menus, teams and calendars in memory for customers' reads
-- (src/menus/store.ts); a committed change to them tells every listening instance to drop it.
CREATE FUNCTION porchlight_notify_menus() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('porchlight_menus', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER "ServiceMenu_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ServiceMenu" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
CREATE TRIGGER "MenuService_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "MenuService" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
CREATE TRIGGER "MenuAddOn_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "MenuAddOn" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
CREATE TRIGGER "MenuScent_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "MenuScent" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
CREATE TRIGGER "StaffMember_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "StaffMember" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
CREATE TRIGGER "StaffHours_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "StaffHours" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
CREATE TRIGGER "StaffTimeOff_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "StaffTimeOff" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
CREATE TRIGGER "Visit_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Visit" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_menus();
