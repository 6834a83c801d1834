/** Text messages to a business phone, relayed into conversations. */
import type { Services } from '../context.js';
import { normalisePhone } from '../sms/phone.js';
import { lockKey, announceCustomerMessage } from './conversation.js';
import { hashToken, newToken } from '../auth/tokens.js';

/**
 * The business a text was sent to: the one whose active receptionist number it is (the number its
 * texts leave from), else the one whose listed phone it is. US numbers are compared by their last
 * 10 digits: "+1-512-555-0123" and "+15125550123" match.
 */
async function businessTexted(services: Services, to: string) {
  const number = normalisePhone(to);
  if (!number) return null;
  const [own] = await services.prisma.$queryRaw<{ id: string; email: string | null }[]>`
    SELECT b."id", b."email" FROM "ReceptionistNumber" n JOIN "Business" b ON b."id" = n."businessId"
    WHERE n."number" = ${number.e164} AND n."status" = 'active' LIMIT 1`;
  if (own) return own;
  const [listed] = await services.prisma.$queryRaw<{ id: string; email: string | null }[]>`
    SELECT "id", "email" FROM "Business" WHERE right(regexp_replace("phone", '\\D', '', 'g'), 10) = ${number.national.slice(-10)} ORDER BY "createdAt" LIMIT 1`;
  return listed ?? null;
}

/**
 * Relays an inbound text message into the business's open text conversation with that number,
 * or starts one. Returns null when no business has the number it was sent to.
 * A customer's answer to a text the business sent from its own number arrives here the same way.
 */
export async function relayTextMessage(services: Services, text: { from: string; to: string; body: string }) {
  const business = await businessTexted(services, text.to);
  if (!business) return null;
  // The customer is known by their number in E.164, as bookings and contact forms keep it.
  text = { ...text, from: normalisePhone(text.from)?.e164 ?? text.from };
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
