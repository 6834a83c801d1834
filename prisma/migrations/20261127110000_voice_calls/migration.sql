-- Calls to receptionist numbers from the carrier's voice webhooks: how each was answered and
-- the minutes metered for it, one row per carrier call id (idempotent webhooks and refreshes).
CREATE TABLE "VoiceCall" (
    "id" TEXT NOT NULL,
    "callSid" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "caller" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL,
    "durationSeconds" INTEGER,
    "minutes" INTEGER,
    "meteredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "VoiceCall_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "VoiceCall_callSid_key" ON "VoiceCall"("callSid");

CREATE INDEX "VoiceCall_businessId_createdAt_idx" ON "VoiceCall"("businessId", "createdAt");

ALTER TABLE "VoiceCall" ADD CONSTRAINT "VoiceCall_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;
