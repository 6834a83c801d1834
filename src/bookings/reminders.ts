/**
 * One reminder before a pending booking's hold runs out, by the way the confirmation went: a text
 * from the business's own number when it texts from one, or an e-mail. The first link's token is
 * stored only as its hash, so the reminder carries a confirmation link of its own (the booking's
 * reminderTokenHash), which confirms it as the first does. Bookings held for less than
 * REMIND_BEFORE_MS plus a margin get none: the confirmation itself is still fresh.
 */
import type { Services } from '../context.js';
import { newToken, hashToken } from '../auth/tokens.js';
import { customerReach } from '../mail/reach.js';
import { inWords } from '../mail/words.js';
import type { QueuedMail } from '../mail/outbox.js';
import { isoWithOffset, MINUTE } from '../core/time.js';

/** The reminder leaves this long before the hold runs out. */
export const REMIND_BEFORE_MS = 30 * MINUTE;
/** Only for holds at least this long: a shorter one is reminded by its confirmation. */
const REMINDED_HOLD_MS = 60 * MINUTE;
const BATCH = 100;

export interface ReminderFacts {
  to: { channel: 'email' | 'sms'; to: string };
  bookingId: string;
  businessName: string;
  customerName: string;
  job: string;
  start: string;
  holdUntil: string;
  confirmUrl: string;
  zone: string;
}

export function reminderMail(f: ReminderFacts): QueuedMail {
  if (f.to.channel === 'sms') {
    return inWords(
      {
        channel: 'sms',
        to: f.to.to,
        subject: `Confirm your ${f.businessName} booking`,
        text: `${f.businessName}: your ${f.job} on ${f.start} is not booked until you confirm it by ${f.holdUntil}: ${f.confirmUrl}`,
        bookingId: f.bookingId,
      },
      f.zone,
    );
  }
  return inWords(
    {
      channel: 'email',
      to: f.to.to,
      subject: `Reminder: confirm your ${f.job} with ${f.businessName} by ${f.holdUntil}`,
      text: [
        `Hello ${f.customerName},`,
        '',
        `Your ${f.job} with ${f.businessName} on ${f.start} is not booked yet. Confirm it by ${f.holdUntil}: ${f.confirmUrl}`,
        'If it is not confirmed by then, it lapses and the time is released. The link in the first e-mail works too.',
        '',
        `Booking ${f.bookingId}`,
      ].join('\n'),
      bookingId: f.bookingId,
    },
    f.zone,
  );
}

/**
 * Queues the reminders now due: pending bookings whose hold runs out within REMIND_BEFORE_MS and
 * that were held long enough. Runs on a timer in every instance; the row lock (SKIP LOCKED) and
 * remindedAt make each booking reminded once.
 */
export async function remindHolds(services: Services): Promise<number> {
  const now = services.clock.now();
  return services.transaction(async (tx) => {
    const due = await tx.$queryRaw<
      { id: string; businessId: string; kind: string; trade: string | null; customerName: string; customerEmail: string | null; customerPhone: string | null; holdUntil: Date; start: Date; businessName: string; zone: string; texts: boolean }[]
    >`
      SELECT bk."id", bk."businessId", bk."kind"::text AS "kind", bk."trade", bk."customerName", bk."customerEmail", bk."customerPhone", bk."holdUntil",
        (SELECT min(v."start") FROM "BookingVisit" v WHERE v."bookingId" = bk."id") AS "start",
        b."name" AS "businessName", b."timeZone" AS "zone", b."textsCustomers" AS "texts"
      FROM "Booking" bk JOIN "Business" b ON b."id" = bk."businessId"
      WHERE bk."status" = 'pending' AND bk."remindedAt" IS NULL
        AND bk."holdUntil" > ${new Date(now)} AND bk."holdUntil" <= ${new Date(now + REMIND_BEFORE_MS)}
        AND bk."holdUntil" - bk."createdAt" >= ${`${REMINDED_HOLD_MS / 1000} seconds`}::interval
      ORDER BY bk."holdUntil" LIMIT ${BATCH}
      FOR UPDATE OF bk SKIP LOCKED`;
    let sent = 0;
    for (const b of due) {
      const token = newToken('ct_');
      await tx.booking.update({ where: { id: b.id }, data: { remindedAt: new Date(now), reminderTokenHash: hashToken(token) } });
      const reach = customerReach(services.config, { email: b.customerEmail, phone: b.customerPhone }, b.texts);
      // Nothing this server sends reaches them: the business contacts them, as the booking said.
      if (!reach || !b.start) continue;
      await services.outbox.enqueue(
        tx,
        {
          ...reminderMail({
            to: reach,
            bookingId: b.id,
            businessName: b.businessName,
            customerName: b.customerName,
            job: b.kind === 'service_call' ? `${b.trade === 'hvac' ? 'HVAC' : 'plumbing'} service call` : 'cleaning',
            start: isoWithOffset(b.start.getTime(), b.zone),
            holdUntil: isoWithOffset(b.holdUntil.getTime(), b.zone),
            confirmUrl: services.links.confirm(token),
            zone: b.zone,
          }),
          businessId: b.businessId,
        },
      );
      sent++;
    }
    return sent;
  });
}
