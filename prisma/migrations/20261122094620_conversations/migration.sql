-- CreateEnum
CREATE TYPE "ConversationStatus" AS ENUM ('waiting_for_response', 'replied', 'closed');

-- CreateTable
CREATE TABLE "Conversation" (
    "id" TEXT NOT NULL,
    "businessId" TEXT NOT NULL,
    "replyTokenHash" TEXT NOT NULL,
    "status" "ConversationStatus" NOT NULL DEFAULT 'waiting_for_response',
    "requestType" TEXT NOT NULL,
    "channel" TEXT NOT NULL DEFAULT 'web',
    "customerName" TEXT,
    "customerEmail" TEXT,
    "customerPhone" TEXT,
    "credentialId" TEXT,
    "senderBusinessId" TEXT,
    "zip" TEXT,
    "job" JSONB,
    "priceCents" INTEGER,
    "zipServed" BOOLEAN,
    "ownerNotes" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConversationMessage" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "author" "MessageAuthor" NOT NULL,
    "text" TEXT NOT NULL,
    "channel" TEXT NOT NULL DEFAULT 'web',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConversationMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Conversation_replyTokenHash_key" ON "Conversation"("replyTokenHash");

-- CreateIndex
CREATE INDEX "Conversation_businessId_createdAt_idx" ON "Conversation"("businessId", "createdAt");

-- CreateIndex
CREATE INDEX "Conversation_credentialId_idx" ON "Conversation"("credentialId");

-- CreateIndex
CREATE INDEX "Conversation_senderBusinessId_createdAt_idx" ON "Conversation"("senderBusinessId", "createdAt");

-- CreateIndex
CREATE INDEX "ConversationMessage_conversationId_createdAt_idx" ON "ConversationMessage"("conversationId", "createdAt");

-- AddForeignKey
ALTER TABLE "Conversation" ADD CONSTRAINT "Conversation_businessId_fkey" FOREIGN KEY ("businessId") REFERENCES "Business"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationMessage" ADD CONSTRAINT "ConversationMessage_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
