-- CreateEnum
CREATE TYPE "PaymentTiming" AS ENUM ('none', 'upfront');

-- CreateEnum
CREATE TYPE "AppointmentStatus" AS ENUM ('awaiting_payment', 'confirmed', 'cancelled', 'lapsed', 'refund_pending', 'refunded', 'refund_failed');

-- CreateTable
CREATE TABLE "AppointmentService" (
    "businessId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "priceCents" INTEGER NOT NULL,
    "durationMinutes" INTEGER NOT NULL,
    "payment" "PaymentTiming" NOT NULL,

    CONSTRAINT "AppointmentService_pkey" PRIMARY KEY ("businessId","id")
);

-- CreateTable
CREATE TABLE "AppointmentHours" (
    "businessId" TEXT NOT NULL,
    "weekday" INTEGER NOT NULL,
    "startMinute" INTEGER NOT NULL,
    "endMinute" INTEGER NOT NULL,

    CONSTRAINT "AppointmentHours_pkey" PRIMARY KEY ("businessId","weekday","startMinute")
);

-- CreateTable
CREATE TABLE "Appointment" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "serviceId" TEXT NOT NULL,
    "serviceName" TEXT NOT NULL,
    "priceCents" INTEGER NOT NULL,
    "durationMinutes" INTEGER NOT NULL,
    "payment" "PaymentTiming" NOT NULL,
    "status" "AppointmentStatus" NOT NULL,
    "start" TIMESTAMPTZ(3) NOT NULL,
    "end" TIMESTAMPTZ(3) NOT NULL,
    "holdsTime" BOOLEAN NOT NULL DEFAULT true,
    "holdUntil" TIMESTAMPTZ(3),
    "customerName" TEXT NOT NULL,
    "clientName" TEXT,
    "credentialId" TEXT,
    "paymentAccountId" TEXT,
    "checkoutSessionId" TEXT,
    "checkoutUrl" TEXT,
    "paymentIntentId" TEXT,
    "paidCents" INTEGER,
    "refundId" TEXT,
    "refundRound" INTEGER NOT NULL DEFAULT 0,
    "refundAttempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "confirmedAt" TIMESTAMPTZ(3),
    "paidAt" TIMESTAMPTZ(3),
    "cancelledAt" TIMESTAMPTZ(3),
    "cancelledBy" TEXT,
    "refundedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Appointment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentAccount" (
    "businessId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "chargesEnabled" BOOLEAN NOT NULL DEFAULT false,
    "detailsSubmitted" BOOLEAN NOT NULL DEFAULT false,
    "statusAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PaymentAccount_pkey" PRIMARY KEY ("businessId")
);

-- CreateTable
CREATE TABLE "PaymentWebhookEvent" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "handledAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PaymentWebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxPaymentObject" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "accountId" TEXT,
    "idempotencyKey" TEXT,
    "expiresAt" TIMESTAMPTZ(3),
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SandboxPaymentObject_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxWebhook" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "deliveredAt" TIMESTAMPTZ(3),
    "lastStatus" INTEGER,

    CONSTRAINT "SandboxWebhook_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Appointment_checkoutSessionId_key" ON "Appointment"("checkoutSessionId");

-- CreateIndex
CREATE UNIQUE INDEX "Appointment_refundId_key" ON "Appointment"("refundId");

-- CreateIndex
CREATE INDEX "Appointment_businessId_start_idx" ON "Appointment"("businessId", "start");

-- CreateIndex
CREATE INDEX "Appointment_status_holdUntil_idx" ON "Appointment"("status", "holdUntil");

-- CreateIndex
CREATE INDEX "Appointment_conversationId_idx" ON "Appointment"("conversationId");

-- CreateIndex
CREATE UNIQUE INDEX "PaymentAccount_accountId_key" ON "PaymentAccount"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "SandboxPaymentObject_idempotencyKey_key" ON "SandboxPaymentObject"("idempotencyKey");

-- CreateIndex
CREATE INDEX "SandboxPaymentObject_type_status_expiresAt_idx" ON "SandboxPaymentObject"("type", "status", "expiresAt");

-- CreateIndex
CREATE INDEX "SandboxWebhook_deliveredAt_nextAttemptAt_idx" ON "SandboxWebhook"("deliveredAt", "nextAttemptAt");

-- AddForeignKey
ALTER TABLE "AppointmentService" ADD CONSTRAINT "AppointmentService_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AppointmentHours" ADD CONSTRAINT "AppointmentHours_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentAccount" ADD CONSTRAINT "PaymentAccount_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma cannot model it): one appointment at a time per business. Appointments
-- that hold their time (confirmed, or awaiting_payment while their hold runs) never overlap;
-- half-open ranges, so back-to-back appointments are allowed.
CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_one_at_a_time"
  EXCLUDE USING gist ("businessId" WITH =, tstzrange("start", "end", '[)') WITH &&)
  WHERE ("holdsTime");
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_end_after_start" CHECK ("end" > "start");
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_only_live_hold_time"
  CHECK (NOT "holdsTime" OR "status" IN ('awaiting_payment', 'confirmed'));
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_awaiting_has_hold"
  CHECK ("status" <> 'awaiting_payment' OR "holdUntil" IS NOT NULL);
ALTER TABLE "AppointmentService" ADD CONSTRAINT "AppointmentService_amounts"
  CHECK ("priceCents" >= 0 AND "durationMinutes" > 0 AND ("payment" = 'none' OR "priceCents" > 0));
ALTER TABLE "AppointmentHours" ADD CONSTRAINT "AppointmentHours_window"
  CHECK ("weekday" BETWEEN 0 AND 6 AND "startMinute" >= 0 AND "endMinute" <= 1440 AND "endMinute" > "startMinute");

-- An awaiting_payment appointment whose hold has run out no longer holds its time, whether or
-- not the sweep has marked it lapsed yet: before a new appointment takes a range, the expired
-- holds in its way let go, so the constraint above never refuses a booking because of one (the
-- sweep still marks them lapsed and tells the customer and the owner). "Now" is the new row's
-- createdAt: the server clock at booking, which every hold was measured by.
CREATE FUNCTION porchlight_appointment_release_expired_holds() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."holdsTime" THEN
    UPDATE "Appointment" SET "holdsTime" = false
    WHERE "businessId" = NEW."businessId" AND "holdsTime" AND "status" = 'awaiting_payment'
      AND "holdUntil" <= NEW."createdAt" AND "id" <> NEW."id"
      AND tstzrange("start", "end", '[)') && tstzrange(NEW."start", NEW."end", '[)');
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "Appointment_release_expired_holds" BEFORE INSERT ON "Appointment"
  FOR EACH ROW EXECUTE FUNCTION porchlight_appointment_release_expired_holds();

-- Instances keep each menu business's appointment services, hours and payment account in
-- memory with its menu (src/menus/store.ts); a committed change tells the others to drop it.
CREATE TRIGGER "AppointmentService_notify" AFTER INSERT OR UPDATE OR DELETE ON "AppointmentService" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "AppointmentHours_notify" AFTER INSERT OR UPDATE OR DELETE ON "AppointmentHours" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
CREATE TRIGGER "PaymentAccount_notify" AFTER INSERT OR UPDATE OR DELETE ON "PaymentAccount" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('menu');
