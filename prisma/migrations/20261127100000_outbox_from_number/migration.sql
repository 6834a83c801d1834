-- A text leaves from the business's own receptionist number when the business texts customers
-- from it (update_front_desk texts_customers); null keeps the platform's number.
ALTER TABLE "OutboxMessage" ADD COLUMN "fromNumber" TEXT;
