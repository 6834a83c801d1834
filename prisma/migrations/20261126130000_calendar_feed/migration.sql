-- The private calendar feed (my_business calendar_feed_url): its token's hash for lookup, and the
-- token sealed with SECRETS_KEY so the URL can be shown again.
ALTER TABLE "Business" ADD COLUMN "calendarFeedHash" TEXT,
ADD COLUMN "calendarFeedSealed" TEXT;

CREATE UNIQUE INDEX "Business_calendarFeedHash_key" ON "Business"("calendarFeedHash");

-- The SEQUENCE of the customer's calendar event, raised when it moves or is cancelled.
ALTER TABLE "Booking" ADD COLUMN "calendarSequence" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Visit" ADD COLUMN "calendarSequence" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Appointment" ADD COLUMN "calendarSequence" INTEGER NOT NULL DEFAULT 0;

-- Files sent with a message (an .ics event).
ALTER TABLE "OutboxMessage" ADD COLUMN "attachments" JSONB;
