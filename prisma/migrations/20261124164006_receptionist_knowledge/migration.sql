-- CreateTable
CREATE TABLE "Receptionist" (
    "businessId" TEXT NOT NULL,
    "draft" TEXT NOT NULL DEFAULT '',
    "draftByOwner" BOOLEAN NOT NULL DEFAULT false,
    "instructions" TEXT NOT NULL DEFAULT '',
    "published" TEXT,
    "publishedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Receptionist_pkey" PRIMARY KEY ("businessId")
);

-- CreateTable
CREATE TABLE "ReceptionistSource" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "origin" TEXT,
    "format" TEXT,
    "title" TEXT,
    "text" TEXT NOT NULL,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "shareable" BOOLEAN NOT NULL DEFAULT false,
    "addedAt" TIMESTAMPTZ(3) NOT NULL,
    "editedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ReceptionistSource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FrontDesk" (
    "businessId" TEXT NOT NULL,
    "greeting" TEXT NOT NULL DEFAULT '',
    "tone" TEXT NOT NULL DEFAULT '',
    "handOff" TEXT NOT NULL DEFAULT '',
    "handOffPhone" TEXT,
    "answerWhen" TEXT NOT NULL DEFAULT 'always',
    "answerHours" JSONB NOT NULL DEFAULT '[]',
    "completedAt" TIMESTAMPTZ(3),
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FrontDesk_pkey" PRIMARY KEY ("businessId")
);

-- CreateIndex
CREATE INDEX "ReceptionistSource_businessId_addedAt_idx" ON "ReceptionistSource"("businessId", "addedAt");

-- AddForeignKey
ALTER TABLE "Receptionist" ADD CONSTRAINT "Receptionist_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReceptionistSource" ADD CONSTRAINT "ReceptionistSource_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FrontDesk" ADD CONSTRAINT "FrontDesk_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Customers' reads of the published page and shared sources (business_info) are cached per
-- business with the menu; other instances drop that copy on "knowledge:<businessId>". Draft and
-- instruction edits reach no customer, so only a change of the published page notifies.
CREATE TRIGGER "Receptionist_notify" AFTER INSERT OR UPDATE OF "published", "publishedAt" OR DELETE ON "Receptionist" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('knowledge');
CREATE TRIGGER "ReceptionistSource_notify" AFTER INSERT OR UPDATE OR DELETE ON "ReceptionistSource" FOR EACH ROW EXECUTE FUNCTION porchlight_notify_change('knowledge');
CREATE TRIGGER "Receptionist_reset" AFTER TRUNCATE ON "Receptionist" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_reset();
CREATE TRIGGER "ReceptionistSource_reset" AFTER TRUNCATE ON "ReceptionistSource" FOR EACH STATEMENT EXECUTE FUNCTION porchlight_notify_reset();
