-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN     "claimedUntil" TIMESTAMPTZ(3);

-- Delivery reads only what is still to send; sent rows pile up by the million and must not be
-- walked past on every run.
CREATE INDEX "OutboxMessage_pending_idx" ON "OutboxMessage" ("createdAt", "id") WHERE "sentAt" IS NULL;
