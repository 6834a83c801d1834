/** Text messages to a business phone, relayed into conversations. */
import type { Services } from '../context.js';
import { lockKey, announceCustomerMessage } from './conversation.js';
import { hashToken, newToken } from '../auth/tokens.js';

/**
 * Relays an inbound text message into the business's open text conversation with that number,
 * or starts one. Returns null when no business has the number it was sent to.
 */
export async function relayTextMessage(services: Services, text: { from: string; to: string; body: string }) {
  // US numbers compared by their last 10 digits: "+1-512-555-0123" and "+15125550123" match.
  const digits = text.to.replace(/\D/g, '').slice(-10);
  if (digits.length < 10) return null;
  const [business] = await services.prisma.$queryRaw<{ id: string; email: string | null }[]>`
    SELECT "id", "email" FROM "Business" WHERE right(regexp_replace("phone", '\\D', '', 'g'), 10) = ${digits} ORDER BY "createdAt" LIMIT 1`;
  if (!business) return null;
  const now = services.clock.date();
  const outcome = await services.transaction(async (tx) => {
    await lockKey(tx, `sms:${business.id}:${text.from}`);
    const open = await tx.conversation.findFirst({
      where: { businessId: business.id, channel: 'sms', customerPhone: text.from, status: { not: 'closed' } },
      orderBy: { createdAt: 'desc' },
      select: { id: true },
    });
    let id: string;
    if (open) {
      await tx.conversationMessage.create({ data: { conversationId: open.id, author: 'customer', text: text.body, channel: 'sms', createdAt: now } });
      await tx.conversation.update({ where: { id: open.id }, data: { status: 'waiting_for_response', updatedAt: now } });
      id = open.id;
    } else {
      // The texter continues by text; nobody holds this conversation's reply_token.
      const created = await tx.conversation.create({
        data: {
          businessId: business.id,
          replyTokenHash: hashToken(newToken('rt_')),
          requestType: 'question',
          channel: 'sms',
          customerPhone: text.from,
          createdAt: now,
          updatedAt: now,
          messages: { create: { author: 'customer', text: text.body, channel: 'sms', createdAt: now } },
        },
        select: { id: true },
      });
      id = created.id;
    }
    await announceCustomerMessage(tx, services, business, { inquiryId: id, from: text.from, message: text.body, requestType: 'question', viaText: true });
    return { inquiryId: id, created: !open };
  });
  return outcome;
}
