-- One reminder before a pending booking's hold runs out, with a confirmation link of its own: the
-- first link's token is stored only as its hash, so the reminder carries a second one.
ALTER TABLE "Booking" ADD COLUMN "remindedAt" TIMESTAMPTZ(3), ADD COLUMN "reminderTokenHash" TEXT;
CREATE UNIQUE INDEX "Booking_reminderTokenHash_key" ON "Booking"("reminderTokenHash");
