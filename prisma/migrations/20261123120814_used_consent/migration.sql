-- CreateTable
CREATE TABLE "UsedConsent" (
    "jti" TEXT NOT NULL,
    "usedAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "UsedConsent_pkey" PRIMARY KEY ("jti")
);

-- CreateIndex
CREATE INDEX "UsedConsent_expiresAt_idx" ON "UsedConsent"("expiresAt");
