-- The calendar's read (src/owners/calendar.ts) asks for entries that end after a moment: upcoming
-- ones (end > now) and those awaiting an outcome (ended within the last two weeks). By end, a
-- business's past stays out of the scan however long its history grows; by start it was all read.
CREATE INDEX "BookingVisit_businessId_end_idx" ON "BookingVisit"("businessId", "end");
CREATE INDEX "Visit_businessId_end_idx" ON "Visit"("businessId", "end");
CREATE INDEX "Appointment_businessId_end_idx" ON "Appointment"("businessId", "end");
