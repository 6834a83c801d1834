-- CreateTable
CREATE TABLE "ReceptionistBilling" (
    "businessId" TEXT NOT NULL,
    "provider" TEXT,
    "customerId" TEXT,
    "subscriptionId" TEXT,
    "planStatus" TEXT NOT NULL DEFAULT 'none',
    "cancelAtPeriodEnd" BOOLEAN NOT NULL DEFAULT false,
    "planStatusAt" TIMESTAMPTZ(3) NOT NULL,
    "planCents" INTEGER NOT NULL,
    "includedMinutes" INTEGER NOT NULL,
    "overageCentsPerMinute" INTEGER NOT NULL,
    "periodStart" TIMESTAMPTZ(3),
    "periodEnd" TIMESTAMPTZ(3),
    "usedMinutes" INTEGER NOT NULL DEFAULT 0,
    "limitCents" INTEGER NOT NULL,
    "atLimit" TEXT NOT NULL DEFAULT 'ask',
    "limitReachedFor" TIMESTAMPTZ(3),
    "checkoutSessionId" TEXT,
    "checkoutUrl" TEXT,
    "checkoutExpiresAt" TIMESTAMPTZ(3),
    "checkouts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ReceptionistBilling_pkey" PRIMARY KEY ("businessId")
);

-- CreateTable
CREATE TABLE "ReceptionistUsage" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "usageId" TEXT NOT NULL,
    "requested" INTEGER NOT NULL,
    "minutes" INTEGER NOT NULL,
    "overageMinutes" INTEGER NOT NULL,
    "periodStart" TIMESTAMPTZ(3) NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "reportedAt" TIMESTAMPTZ(3),
    "reportAttempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ReceptionistUsage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReceptionistNumber" (
    "businessId" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "locality" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "carrierRef" TEXT,
    "idempotencyKey" TEXT NOT NULL,
    "failure" TEXT,
    "requestedAt" TIMESTAMPTZ(3) NOT NULL,
    "activatedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ReceptionistNumber_pkey" PRIMARY KEY ("businessId")
);

-- CreateTable
CREATE TABLE "PhoneNumberOffer" (
    "businessId" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "locality" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "offeredAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PhoneNumberOffer_pkey" PRIMARY KEY ("businessId","number")
);

-- CreateTable
CREATE TABLE "NumberPort" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "carrierRef" TEXT,
    "pageTokenHash" TEXT,
    "pageExpiresAt" TIMESTAMPTZ(3),
    "reason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "submittedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "NumberPort_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxCarrierObject" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SandboxCarrierObject_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ReceptionistBilling_subscriptionId_key" ON "ReceptionistBilling"("subscriptionId");

-- CreateIndex
CREATE INDEX "ReceptionistUsage_businessId_at_idx" ON "ReceptionistUsage"("businessId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "ReceptionistUsage_businessId_usageId_key" ON "ReceptionistUsage"("businessId", "usageId");

-- CreateIndex
CREATE INDEX "ReceptionistNumber_number_idx" ON "ReceptionistNumber"("number");

-- CreateIndex
CREATE INDEX "ReceptionistNumber_status_idx" ON "ReceptionistNumber"("status");

-- CreateIndex
CREATE UNIQUE INDEX "NumberPort_pageTokenHash_key" ON "NumberPort"("pageTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "NumberPort_businessId_number_key" ON "NumberPort"("businessId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "SandboxCarrierObject_idempotencyKey_key" ON "SandboxCarrierObject"("idempotencyKey");

-- AddForeignKey
ALTER TABLE "ReceptionistBilling" ADD CONSTRAINT "ReceptionistBilling_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReceptionistUsage" ADD CONSTRAINT "ReceptionistUsage_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReceptionistNumber" ADD CONSTRAINT "ReceptionistNumber_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PhoneNumberOffer" ADD CONSTRAINT "PhoneNumberOffer_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NumberPort" ADD CONSTRAINT "NumberPort_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The ledger's rules, held by the database too: paid usage (minutes past the included ones) never
-- takes the month past the owner's limit, whatever code path writes the row.
ALTER TABLE "ReceptionistBilling"
  ADD CONSTRAINT "ReceptionistBilling_usage_within_limit"
    CHECK ("usedMinutes" <= "includedMinutes" OR "planCents" + ("usedMinutes" - "includedMinutes") * "overageCentsPerMinute" <= "limitCents"),
  ADD CONSTRAINT "ReceptionistBilling_counts" CHECK ("usedMinutes" >= 0 AND "limitCents" BETWEEN 0 AND 1000000 AND "includedMinutes" >= 0 AND "overageCentsPerMinute" >= 0 AND "planCents" >= 0),
  ADD CONSTRAINT "ReceptionistBilling_at_limit" CHECK ("atLimit" IN ('pause', 'ask')),
  ADD CONSTRAINT "ReceptionistBilling_plan_status" CHECK ("planStatus" IN ('none', 'incomplete', 'active', 'past_due', 'cancelled'));

ALTER TABLE "ReceptionistUsage" ADD CONSTRAINT "ReceptionistUsage_granted" CHECK ("minutes" BETWEEN 0 AND "requested" AND "overageMinutes" BETWEEN 0 AND "minutes");

-- The sweep reads only the overage reports still to send.
CREATE INDEX "ReceptionistUsage_unreported_idx" ON "ReceptionistUsage" ("at") WHERE "reportedAt" IS NULL;
