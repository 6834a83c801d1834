-- CreateEnum
CREATE TYPE "RequestKeyStatus" AS ENUM ('pending', 'done');

-- CreateTable
CREATE TABLE "RequestKey" (
    "keyHash" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" "RequestKeyStatus" NOT NULL DEFAULT 'pending',
    "result" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RequestKey_pkey" PRIMARY KEY ("keyHash")
);

-- CreateIndex
CREATE INDEX "RequestKey_expiresAt_idx" ON "RequestKey"("expiresAt");
