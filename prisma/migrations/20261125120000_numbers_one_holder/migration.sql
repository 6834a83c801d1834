-- DropIndex
DROP INDEX "ReceptionistNumber_number_idx";

-- AlterTable
ALTER TABLE "NumberPort" ADD COLUMN     "replaceNumber" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "NumberRelease" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "carrierRef" TEXT NOT NULL,
    "portId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "releasedAt" TIMESTAMPTZ(3),

    CONSTRAINT "NumberRelease_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "NumberRelease_businessId_releasedAt_idx" ON "NumberRelease"("businessId", "releasedAt");

-- AddForeignKey
ALTER TABLE "NumberRelease" ADD CONSTRAINT "NumberRelease_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma cannot model a partial unique index): a number is live (purchasing,
-- uncertain, pending or active) for one business at most, whatever writes it.
-- Before this, two transfers of one number could both complete. Where that left one number live
-- for several businesses, the one that held it first keeps it (active before not yet active, then
-- the earliest activation, the earliest request); the others' rows fail with the reason, and
-- their completed transfer of it shows as refused.
WITH ranked AS (
    SELECT "businessId", row_number() OVER (
        PARTITION BY "number"
        ORDER BY ("status" = 'active') DESC, "activatedAt" ASC NULLS LAST, "requestedAt" ASC, "businessId" ASC
    ) AS "rank"
    FROM "ReceptionistNumber"
    WHERE "status" <> 'failed'
), losers AS (
    UPDATE "ReceptionistNumber" n
    SET "status" = 'failed',
        "failure" = 'Another Porchlight business already held this number, so it is not this business''s. Choose a number with phone_numbers.',
        "updatedAt" = CURRENT_TIMESTAMP
    FROM ranked r
    WHERE r."businessId" = n."businessId" AND r."rank" > 1
    RETURNING n."businessId", n."number"
)
UPDATE "NumberPort" p
SET "status" = 'rejected',
    "reason" = 'The number is already the receptionist number of another Porchlight business, so it was not made this business''s.',
    "updatedAt" = CURRENT_TIMESTAMP
FROM losers l
WHERE p."businessId" = l."businessId" AND p."number" = l."number" AND p."status" = 'completed';

CREATE UNIQUE INDEX "ReceptionistNumber_live_number_key" ON "ReceptionistNumber" ("number") WHERE "status" <> 'failed';
