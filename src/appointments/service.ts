/**
 * Customers' side of appointments: appointment_times (bookable services, then live starts),
 * book_appointment and cancel_appointment, all through an existing conversation (inquiry_id and
 * reply_token from contact_business; no sign-in).
 *
 * book_appointment runs under the caller's lock and the business's appointment lock: a retry for
 * the same conversation, service and start finds the appointment it made; otherwise the price,
 * the payment account, the limits on what the caller and the customer hold (menus/limits.ts) and
 * on unpaid holds per day, and the start are checked against the setup as it is now, and the
 * row is written. A free service is confirmed at once, so it needs a contact the business can
 * reach (an e-mail or phone: given now, with the conversation, or in the X-User-* headers). An
 * appointment paid upfront then gets its checkout from the provider outside the transaction (a
 * provider never waits on our locks), and a retry finishes that step if it failed.
 */
import { DateTime } from 'luxon';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { hashToken } from '../auth/tokens.js';
import { signedIn } from '../auth/credentials.js';
import { lockRequester, requesterOf } from '../auth/requester.js';
import { contactKey, customerContact, reachableContact } from '../bookings/contact.js';
import type { Tx } from '../db/transaction.js';
import { checkLiveLimits } from '../menus/limits.js';
import { DAY, MINUTE, dateToDayNumber, dayNumberToDate, isoWithOffset, localDate, parseStart, readDate } from '../core/time.js';
import { withOpenStarts } from '../availability/nearest-starts.js';
import { closeOtherConversations, postToConversation } from '../conversations/conversation.js';
import { loadMenuState, type MenuState } from '../menus/store.js';
import { providerUnavailable, usableAccount } from '../payments/accounts.js';
import { ProviderError, type PaymentProvider } from '../payments/provider.js';
import { appointmentNoticeMail } from './mail.js';
import { bookableServices, bookingHours } from './offer.js';
import { appointmentInvite, cancel } from './moves.js';
import { answerMail } from '../conversations/mail.js';
import type { BookableService } from './plan.js';
import { HORIZON_DAYS, PAYMENT_HOLD_MINUTES, SELF_CANCEL_MS, appointmentEnd, appointmentStarts, canBook, daySpan, takesTime, type AppointmentPlan } from './schedule.js';
import { whenForPeople } from '../core/for-people.js';
import { QUEUED, findAppointment, heldAppointments, lockAppointments, startIso, type StoredAppointment } from './store.js';
import { usd } from '../core/money.js';
import type { appointmentTimesInput, bookAppointmentInput, cancelAppointmentInput } from './inputs.js';

/** Days listed when appointment_times gets a service but no date. */
const DEFAULT_DAYS = 7;

function servicePlan(state: MenuState, service: BookableService, held: AppointmentPlan['appointments'], now: number): AppointmentPlan {
  return {
    zone: state.business.timeZone,
    openingHours: state.business.hours,
    hours: state.appointments.hours,
    blocks: state.blocks,
    appointments: held,
    minNoticeMinutes: state.business.minNoticeMinutes,
    now,
    durationMinutes: service.durationMinutes,
  };
}

const serviceView = (s: BookableService) => ({ serviceId: s.id, name: s.name, priceCents: s.priceCents, durationMinutes: s.durationMinutes, payment: s.payment });

function unknownService(state: MenuState, serviceId: string, provider: Pick<PaymentProvider, 'name'>): AppError {
  const offered = state.appointments.services.find((s) => s.id === serviceId);
  if (offered && bookingHours(state).length > 0) {
    return new AppError('not_configured', `${state.business.name} cannot take payment upfront yet, so "${offered.name}" cannot be booked now. Ask the business in the conversation.`);
  }
  const list = bookableServices(state, provider).map((s) => `"${s.id}"`);
  return notFound(`${state.business.name} has no bookable appointment service "${serviceId}". ${list.length ? `Bookable: ${list.join(', ')}.` : 'It takes no appointments now.'} appointment_times without service_id lists them.`);
}

export async function appointmentTimesService(input: z.output<typeof appointmentTimesInput>, ctx: Context) {
  const now = ctx.clock.now();
  let state = await ctx.menus.state(input.business);
  const services = bookableServices(state, ctx.payments.provider);
  const base = { business: state.business.slug, name: state.business.name, services: services.map(serviceView) };
  if (input.service_id === undefined) return { ...base, serviceId: null, priceCents: null, durationMinutes: null, payment: null, date: null, note: null, starts: [] };
  const service = services.find((s) => s.id === input.service_id);
  if (!service) throw unknownService(state, input.service_id, ctx.payments.provider);
  const zone = state.business.timeZone;
  const asked = readDate(input.date, zone, now);
  const date = asked.date ?? localDate(now, zone);
  const day = dateToDayNumber(date)!;
  const days = input.date === undefined ? DEFAULT_DAYS : 1;
  if (day * DAY > now + HORIZON_DAYS * DAY) throw invalid(`date must be within the next ${HORIZON_DAYS} days.`);
  const span = daySpan(day, days);
  // Blocked time for the days asked about (the cached state covers the months ahead).
  state = await ctx.menus.state(input.business, span);
  const held = await heldAppointments(ctx.prisma, state.business.id, span.from, span.to);
  const starts = appointmentStarts(servicePlan(state, service, held, now), date, days);
  return { ...base, serviceId: service.id, priceCents: service.priceCents, durationMinutes: service.durationMinutes, payment: service.payment, date, note: asked.note, starts: starts.map((s) => isoWithOffset(s, zone)) };
}

// ---------------------------------------------------------------------------------------------

const NO_CONVERSATION = 'No conversation matches that inquiry_id and reply_token. Start one with contact_business, then book with its inquiry_id and reply_token.';

/** The customer's view of an appointment (book_appointment). */
export function appointmentView(a: StoredAppointment, now: number) {
  const zone = a.business.timeZone;
  const payable = a.status === 'awaiting_payment' && a.holdUntil !== null && a.holdUntil.getTime() > now;
  return {
    bookingId: a.id,
    status: payable || a.status !== 'awaiting_payment' ? a.status : ('lapsed' as const),
    checkoutUrl: payable ? a.checkoutUrl : null,
    holdUntil: payable ? isoWithOffset(a.holdUntil!.getTime(), zone) : null,
    serviceId: a.serviceId,
    serviceName: a.serviceName,
    start: isoWithOffset(a.start.getTime(), zone),
    end: isoWithOffset(a.end.getTime(), zone),
    priceCents: a.priceCents,
    payment: a.payment,
    inquiryId: a.conversationId,
  };
}

/** Open starts of a service on the days around `wanted` (a refusal's nearest starts), as appointment_times lists them. */
async function appointmentStartsNear(ctx: Context, businessId: string, serviceId: string, wanted: number): Promise<string[]> {
  const { slug, timeZone } = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { slug: true, timeZone: true } });
  const today = dateToDayNumber(localDate(ctx.clock.now(), timeZone))!;
  const day = dateToDayNumber(localDate(wanted, timeZone))!;
  // Without a date appointment_times covers the week from today; further out, the days around it.
  const dates = day - today < DEFAULT_DAYS - 1 ? [undefined] : [day - 1, day, day + 1].map(dayNumberToDate);
  const lists = await Promise.all(dates.map((date) => appointmentTimesService({ business: slug, service_id: serviceId, date }, ctx)));
  return lists.flatMap((l) => l.starts);
}

const taken = (start: string) => new AppError('time_unavailable', `The start ${start} is no longer available. Call appointment_times for current starts and pick another.`);

export async function bookAppointmentService(input: z.output<typeof bookAppointmentInput>, ctx: Context) {
  if (!input.customer_authorized) throw invalid('Show the customer the service, start and price first, and pass customer_authorized true once they agree.');
  const start = parseStart(input.start);
  if (start === null) throw invalid('start must be an ISO 8601 timestamp with its offset, exactly as appointment_times returned it.');
  const conversation = await ctx.prisma.conversation.findFirst({
    where: { id: input.inquiry_id, replyTokenHash: hashToken(input.reply_token) },
    select: { id: true, businessId: true, status: true, customerName: true, customerEmail: true, customerPhone: true },
  });
  if (!conversation) throw notFound(NO_CONVERSATION);
  if (conversation.status === 'closed') throw new AppError('conversation_closed', 'This conversation is closed; start a new one with contact_business and book through it.');
  const now = ctx.clock.now();
  const provider = ctx.payments.provider;
  // How the business reaches the customer: given now, else with the conversation, else the X-User-* headers.
  const given = input.customer_email !== undefined || input.customer_phone !== undefined;
  const contact = customerContact(
    {
      customer_name: conversation.customerName ?? 'A customer',
      customer_email: given ? input.customer_email : (conversation.customerEmail ?? undefined),
      customer_phone: given ? input.customer_phone : (conversation.customerPhone ?? undefined),
    },
    ctx,
  );
  const requesterHash = requesterOf(ctx);

  let booked: { appointment: StoredAppointment; replayed: boolean };
  try {
    booked = await ctx.transaction(async (tx) => {
      await lockRequester(tx, requesterHash);
      await lockAppointments(tx, conversation.businessId);
      // A retry of the same booking returns it (while it still holds its time).
      const earlier = await findAppointment(tx, {
        conversationId: conversation.id,
        serviceId: input.service_id,
        start: new Date(start),
        holdsTime: true,
        OR: [{ status: 'confirmed' }, { status: 'awaiting_payment', holdUntil: { gt: new Date(now) } }],
      });
      if (earlier) return { appointment: earlier, replayed: true };
      const state = await loadMenuState(tx, { id: conversation.businessId }, start - 2 * DAY, start + 2 * DAY);
      const service = bookableServices(state, provider).find((s) => s.id === input.service_id);
      if (!service) throw unknownService(state, input.service_id, provider);
      if (service.priceCents !== input.expected_price_cents) {
        throw new AppError(
          'price_changed',
          `The price of ${service.name} is now ${usd(service.priceCents)} (price_cents ${service.priceCents}), not the expected_price_cents sent. Show the customer the new price and book again with it.`,
          { price_cents: service.priceCents },
        );
      }
      const upfront = service.payment === 'upfront';
      const customerKey = upfront ? contactKey(contact) : reachableContact(contact, `${service.name} is free and confirmed at once`);
      await checkLiveLimits(ctx, tx, 'appointment', { businessId: state.business.id, businessName: state.business.name, requesterHash, contactKey: customerKey, now });
      const zone = state.business.timeZone;
      const held = await heldAppointments(tx, state.business.id, start - DAY, start + DAY);
      if (!canBook(servicePlan(state, service, held, now), start)) throw taken(isoWithOffset(start, zone));
      if (upfront) await checkUnpaidShare(ctx, tx, state, service, start, now);
      const account = usableAccount(state.appointments.account, provider);
      const at = new Date(now);
      const holdUntil = upfront ? new Date(now + PAYMENT_HOLD_MINUTES * MINUTE) : null;
      const created = await tx.appointment.create({
        data: {
          businessId: state.business.id,
          conversationId: conversation.id,
          serviceId: service.id,
          serviceName: service.name,
          priceCents: service.priceCents,
          durationMinutes: service.durationMinutes,
          payment: service.payment,
          status: upfront ? 'awaiting_payment' : 'confirmed',
          start: new Date(start),
          end: new Date(appointmentEnd(start, service.durationMinutes)),
          holdUntil,
          customerName: conversation.customerName ?? 'A customer',
          clientName: ctx.clientName ?? null,
          credentialId: signedIn(ctx.credential)?.id ?? null,
          requesterHash,
          contactKey: customerKey,
          paymentAccountId: upfront ? account!.accountId : null,
          createdAt: at,
          confirmedAt: upfront ? null : at,
        },
        select: { id: true, customerName: true },
      });
      const when = isoWithOffset(start, zone);
      const request = `Booked ${service.name} on ${when}, ${usd(service.priceCents)}.`;
      const answer = upfront
        ? `Held until ${isoWithOffset(holdUntil!.getTime(), zone)} for the upfront payment of ${usd(service.priceCents)}: confirmed once the payment arrives; unpaid by then, the booking lapses and the time is free again.`
        : `Confirmed: ${service.name} on ${when}. Nothing is paid through Porchlight; the business charges for its work itself.`;
      if (!conversation.customerEmail && !conversation.customerPhone && (contact.email || contact.phone)) {
        // The conversation carries the contact the business reaches the customer by (inquiries).
        await tx.conversation.update({ where: { id: conversation.id }, data: { customerEmail: contact.email?.toLowerCase() ?? null, customerPhone: contact.phone } });
      }
      await closeOtherConversations(tx, { businessId: state.business.id, credentialId: signedIn(ctx.credential)?.id ?? null, keep: conversation.id, at });
      await postToConversation(tx, conversation.id, 'customer', request, at);
      await postToConversation(tx, conversation.id, 'business', answer, at);
      if (contact.email) {
        // The customer's copy, with the appointment's calendar event (tentative while the payment is awaited).
        const mail = answerMail(contact.email, {
          inquiryId: conversation.id, businessName: state.business.name, customerName: created.customerName, message: answer, zone,
          page: ctx.links.conversation(conversation.id, input.reply_token),
        });
        mail.attachments = [
          await appointmentInvite(
            ctx, tx,
            { id: created.id, serviceName: service.name, customerName: created.customerName, start: new Date(start), end: new Date(appointmentEnd(start, service.durationMinutes)), business: state.business },
            'REQUEST', contact.email, answer, at, upfront ? 'awaiting_payment' : 'confirmed', 0,
          ),
        ];
        await ctx.outbox.enqueue(tx, mail);
      }
      if (state.business.email) {
        await ctx.outbox.enqueue(
          tx,
          appointmentNoticeMail(state.business.email, {
            subject: `New appointment${upfront ? ' (awaiting payment)' : ''}: ${created.customerName}, ${when}`,
            text: `${created.customerName} booked ${service.name} on ${when}.\n${answer}`,
            bookingId: created.id,
            zone,
            inquiryId: conversation.id,
          }),
        );
      }
      await ctx.emit(tx, {
        type: 'appointment.booked',
        businessId: state.business.id,
        bookingId: created.id,
        inquiryId: conversation.id,
        clientName: ctx.clientName,
        data: { customerName: created.customerName, start: when, text: `${request} ${answer}` },
      });
      return { appointment: (await findAppointment(tx, { id: created.id }))!, replayed: false };
    }, QUEUED);
  } catch (err) {
    throw await withOpenStarts(isExclusionViolation(err) ? taken(input.start) : err, start, () => appointmentStartsNear(ctx, conversation.businessId, input.service_id, start));
  }
  let appointment = booked.appointment;
  if (appointment.status === 'awaiting_payment' && !appointment.checkoutUrl) appointment = await openCheckout(ctx, appointment);
  const view = appointmentView(appointment, now);
  return { ...view, replayed: booked.replayed, next: nextMessage(view) };
}

/**
 * Unpaid holds take time nobody has paid for yet: together they may hold at most
 * calendarLimits.unpaidDayPercent of a business-local day's appointment hours (the first of a day
 * always may), so holds from many callers cannot empty a day. Runs under the business's lock.
 */
async function checkUnpaidShare(ctx: Context, tx: Tx, state: MenuState, service: BookableService, start: number, now: number) {
  const zone = state.business.timeZone;
  const day = DateTime.fromMillis(start, { zone }).startOf('day');
  const weekday = day.weekday % 7;
  const open = bookingHours(state).filter((h) => h.weekday === weekday).reduce((sum, h) => sum + h.endMinute - h.startMinute, 0);
  const percent = ctx.config.calendarLimits.unpaidDayPercent;
  const [held] = await tx.$queryRaw<{ holds: number; minutes: number; firstEnds: Date | null }[]>`
    SELECT count(*)::int AS "holds", coalesce(sum("durationMinutes"), 0)::int AS "minutes", min("holdUntil") AS "firstEnds"
    FROM "Appointment"
    WHERE "businessId" = ${state.business.id} AND "start" >= ${day.toJSDate()} AND "start" < ${day.plus({ days: 1 }).toJSDate()}
      AND "status" = 'awaiting_payment' AND "holdUntil" > ${new Date(now)}`;
  if (held!.holds === 0 || (held!.minutes + service.durationMinutes) * 100 <= open * percent) return;
  throw new AppError(
    'too_many_pending',
    `${state.business.name} already has ${held!.holds} bookings waiting for payment on ${day.toISODate()}, holding ${held!.minutes} of that day's ${open} bookable minutes; ` +
      `unpaid bookings may hold at most ${percent}% of a day at once. Choose another day, or try again after ${isoWithOffset(held!.firstEnds!.getTime(), zone)}, when the first of them is paid or lapses.`,
  );
}

/** The provider's checkout for an appointment awaiting payment; the same key on a retry opens no second one. */
async function openCheckout(ctx: Context, a: StoredAppointment): Promise<StoredAppointment> {
  let session;
  try {
    session = await ctx.payments.provider.createCheckout({
      mode: 'payment',
      onAccount: a.paymentAccountId!,
      currency: 'usd',
      lineItems: [{ name: `${a.serviceName} at ${a.business.name}, ${whenForPeople(a.start, a.business.timeZone)}`, amountCents: a.priceCents, quantity: 1 }],
      reference: { purpose: 'appointment', id: a.id },
      successUrl: ctx.links.checkoutDone(),
      cancelUrl: ctx.links.checkoutLeft(),
      expiresAt: a.holdUntil!.getTime(),
      idempotencyKey: `porchlight-appointment-${a.id}-checkout`,
      customerEmail: a.customerEmail,
    });
  } catch (err) {
    if (err instanceof ProviderError) throw providerUnavailable(ctx.logger, 'opening the checkout', err);
    throw err;
  }
  await ctx.prisma.appointment.updateMany({ where: { id: a.id, checkoutSessionId: null }, data: { checkoutSessionId: session.sessionId, checkoutUrl: session.url } });
  return (await findAppointment(ctx.prisma, { id: a.id }))!;
}

function nextMessage(v: ReturnType<typeof appointmentView>): string {
  const keep = 'Keep reply_token private; the business answers in the conversation (inquiry_status).';
  switch (v.status) {
    case 'awaiting_payment':
      return `Not booked until paid: the customer opens checkout_url and pays ${usd(v.priceCents)} by ${v.holdUntil}; then status turns confirmed (see inquiry_status). Unpaid by then, it lapses and the time is released. ${keep}`;
    case 'confirmed':
      return `Booked: ${v.serviceName} on ${v.start}${v.payment === 'upfront' ? ', paid' : ''}. Cancel with cancel_appointment (booking_id, inquiry_id, reply_token) until 24 hours before the start${v.payment === 'upfront' ? ' for a full refund' : ''}; later, ask the business in the conversation. ${keep}`;
    default:
      return `This booking is ${v.status}. Book again with a start from appointment_times. ${keep}`;
  }
}

export async function cancelAppointmentService(input: z.output<typeof cancelAppointmentInput>, ctx: Context) {
  const now = ctx.clock.now();
  const found = await ctx.prisma.appointment.findFirst({
    where: { id: input.booking_id, conversationId: input.inquiry_id, conversation: { replyTokenHash: hashToken(input.reply_token) } },
    select: { businessId: true },
  });
  if (!found) throw notFound('No appointment matches that booking_id, inquiry_id and reply_token. Use the values returned by book_appointment and contact_business.');
  return ctx.transaction(async (tx) => {
    await lockAppointments(tx, found.businessId);
    const a = (await findAppointment(tx, { id: input.booking_id }))!;
    if (a.status === 'awaiting_payment' && !takesTime({ ...a, holdUntil: a.holdUntil?.getTime() ?? null }, now)) {
      // Its hold ran out: it lapses now, whether or not the sweep got to it.
      return { bookingId: a.id, status: 'lapsed' as const };
    }
    if (a.status !== 'confirmed' && a.status !== 'awaiting_payment') return { bookingId: a.id, status: a.status };
    if (a.status === 'confirmed' && a.start.getTime() - now < SELF_CANCEL_MS) {
      throw new AppError(
        'too_late_to_cancel',
        `This appointment starts ${startIso(a)}, less than 24 hours from now, so it cannot be cancelled here. Ask ${a.business.name} in the conversation (follow_up_business with the inquiry_id and reply_token).`,
      );
    }
    await cancel(ctx, tx, a, 'customer');
    const after = (await findAppointment(tx, { id: a.id }))!;
    return { bookingId: a.id, status: after.status };
  }, QUEUED);
}

