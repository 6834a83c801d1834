-- The links so far were demo placeholders with invented ratings that nothing had checked:
-- they go. Links are now added by owners (add_profile_link) and shown once verified.
DELETE FROM "BusinessLink";

-- CreateEnum
CREATE TYPE "LinkStatus" AS ENUM ('pending', 'verified', 'failed');

-- AlterTable
ALTER TABLE "Business" ADD COLUMN     "linkCode" TEXT;

-- AlterTable
ALTER TABLE "BusinessLink" ADD COLUMN     "checkedAt" TIMESTAMPTZ(3),
ADD COLUMN     "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "problem" TEXT,
ADD COLUMN     "ratingCount" INTEGER,
ADD COLUMN     "status" "LinkStatus" NOT NULL DEFAULT 'pending';

-- CreateIndex
CREATE UNIQUE INDEX "Business_linkCode_key" ON "Business"("linkCode");

-- CreateIndex
CREATE INDEX "BusinessLink_checkedAt_idx" ON "BusinessLink"("checkedAt");

-- CreateIndex
CREATE UNIQUE INDEX "BusinessLink_businessId_url_key" ON "BusinessLink"("businessId", "url");
