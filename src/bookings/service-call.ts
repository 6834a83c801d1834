import type { z } from 'zod';
import type { Context } from '../context.js';
import { AppError, invalid } from '../errors.js';
import { newToken, hashToken } from '../auth/tokens.js';
import { businessBySlug, servesZip } from '../search/catalog.js';
import { arrivalWindow } from '../search/service-calls.js';
import { FEE_NOTE, quoteServiceCall, SAFETY } from '../pricing/service-call.js';
import { busyByBusiness, slotQuery } from '../availability/schedule.js';
import { isOpenStart } from '../availability/slots.js';
import { parseStart } from '../availability/time.js';
import { bookedBy, bookingTransaction, contactOf, unavailable } from './service.js';
import { signedIn } from '../auth/credentials.js';
import { closeConversationsOnBooking } from '../conversations/service.js';
import { confirmationMail } from './mail.js';
import type { bookServiceCall } from './operations.js';

const DAY = 86_400_000;

export async function bookServiceCallService(input: z.output<typeof bookServiceCall.input>, ctx: Context) {
  const business = await businessBySlug(ctx.prisma, input.pro_id, ['plumbing', 'hvac']);
  if (business.kind !== input.trade) {
    throw invalid(`${business.name} is a${business.kind === 'hvac' ? 'n hvac' : ' plumbing'} pro, not ${input.trade}; pass trade ${business.kind}, or pick a pro from find_service_call.`);
  }
  const contact = contactOf(input, ctx, business);
  if (!(await servesZip(ctx.prisma, business.id, input.zip))) {
    throw invalid(`${business.name} does not serve ZIP ${input.zip}. Search with find_service_call for pros who do.`);
  }
  const quote = quoteServiceCall(business.priceList, input.trade, input.issue);
  if (!quote.ok) throw invalid(quote.reason);
  const fee = quote.fee_cents / 100;
  if (input.price !== undefined && Math.round(input.price * 100) !== quote.fee_cents) {
    throw new AppError('price_changed', `The service-call fee is now $${fee}, not $${input.price}. Show the user the new fee and book again with it.`, { fee });
  }

  const now = ctx.clock.now();
  const start = parseStart(input.start);
  if (start === null) throw invalid('start must be the start of an arrival window from find_service_call, e.g. 2026-12-01T09:00:00-06:00.');
  const window = arrivalWindow(start, quote.window_minutes, business.timeZone);
  const busy = (await busyByBusiness(ctx.prisma, [business.id], start - DAY, start + 2 * DAY)).get(business.id)!;
  const taken = () => unavailable(window.start, 'find_service_call');
  if (!isOpenStart(slotQuery(business, busy, quote.window_minutes, now, {}, 1), start)) throw taken();

  const manageToken = newToken('mt_');
  const confirmToken = newToken('ct_');
  const manageUrl = `${ctx.config.baseUrl}/manage/${manageToken}`;
  const job = `${input.trade === 'hvac' ? 'HVAC' : 'plumbing'} service call`;
  const bookingId = await bookingTransaction(ctx, taken, async (tx) => {
    const booking = await tx.booking.create({
      data: {
        businessId: business.id,
        kind: 'service_call',
        manageTokenHash: hashToken(manageToken),
        confirmTokenHash: hashToken(confirmToken),
        priceCents: quote.fee_cents,
        trade: input.trade,
        issue: input.issue,
        details: input.details ?? null,
        ...bookedBy(input, contact, ctx, now),
      },
      select: { id: true },
    });
    await closeConversationsOnBooking(tx, { businessId: business.id, credentialId: signedIn(ctx.credential)?.id ?? null, at: now });
    // The visit holds the whole arrival window, so the exclusion constraint keeps windows apart.
    await tx.bookingVisit.create({
      data: { bookingId: booking.id, businessId: business.id, start: new Date(start), end: new Date(start + quote.window_minutes * 60_000) },
    });
    await ctx.outbox.enqueue(
      tx,
      confirmationMail(
        { email: contact.email, phone: contact.phone },
        {
          bookingId: booking.id,
          businessName: business.name,
          businessPhone: business.phone,
          customerName: contact.name,
          address: input.address,
          starts: [window.start],
          price: fee,
          confirmUrl: `${ctx.config.baseUrl}/confirm/${confirmToken}`,
          manageUrl,
          serviceCall: { job, issue: input.issue, windowEnd: window.end, feeNote: FEE_NOTE, safety: SAFETY },
        },
      ),
    );
    return booking.id;
  });
  void ctx.outbox.flush();
  ctx.events.publish('ownerEvent', business.id, {
    type: 'booking.created',
    at: new Date(now).toISOString(),
    bookingId,
    ...(ctx.clientName ? { clientName: ctx.clientName.slice(0, 100) } : {}),
  });

  const channel = contact.email ? `e-mailed ${contact.email}` : `texted ${contact.phone}`;
  return {
    bookingId,
    status: 'pending' as const,
    manageToken,
    manageUrl,
    fee,
    feeNote: FEE_NOTE,
    window,
    trade: input.trade,
    issue: input.issue,
    safety: SAFETY,
    next:
      `Booked a ${job} with ${business.name}, arriving between ${window.start} and ${window.end}; the service-call fee is $${fee} ` +
      'for the visit and diagnosis only, and any repair is quoted on site before work starts. ' +
      `We ${channel} a link to confirm; the booking stays pending until the customer confirms it there. ` +
      'Cancellation is free until 24 hours before the window starts.',
  };
}
