-- log_lead: a platform lead's cost may be logged as unknown (NULL) rather than a silent 0, so
-- pipeline's spend and cost per booked job never count an unknown cost as free.
ALTER TABLE "Lead" ALTER COLUMN "costCents" DROP NOT NULL;
