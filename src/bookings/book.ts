/**
 * The one booking flow behind book_cleaning and book_service_call: contact rules, the area,
 * open starts, the limit on unconfirmed bookings, and one transaction that writes the booking,
 * its visits, the confirmation and the event. The exclusion constraint on visits settles races
 * the availability check cannot see.
 */
import { randomUUID } from 'node:crypto';
import { DatabaseError } from 'pg';
import type { Context } from '../context.js';
import type { BookingKind } from '../generated/prisma/enums.js';
import { Prisma } from '../generated/prisma/client.js';
import type { AnyTx, Tx } from '../db/transaction.js';
import type { SqlTx } from '../db/transaction.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid } from '../errors.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { signedIn } from '../auth/credentials.js';
import { requesterOf } from '../auth/requester.js';
import type { SnapshotBusiness } from '../search/snapshot.js';
import { SERIES_DAYS, slotQuery, wholeSeriesFree } from '../availability/schedule.js';
import { withOpenStarts } from '../availability/nearest-starts.js';
import { isOpenStart, openStarts, type Busy } from '../core/slots.js';
import { FREQUENCIES, type Frequency } from '../core/recurrence.js';
import { DAY, MINUTE, dateToDayNumber, dayNumberToDate, isoWithOffset, localDate } from '../core/time.js';
import { closeConversationsOnBooking } from '../conversations/conversation.js';
import { customerContact, type ContactInput } from './contact.js';
import { confirmationMail, type ServiceCallMail } from './mail.js';
import type { OutboxRow } from '../mail/outbox.js';
import { businessTextNumber } from '../sms/sender.js';
import { customerReach, toldBy, unreachable } from '../mail/reach.js';
import { inviteAttachment } from '../calendar/invites.js';
import { eventColumns, type EventColumns } from '../events/emit.js';

/** Cancelling is free until this long before the first visit (the pages show the same terms). */
import { FREE_CANCEL_MS } from '../core/cancellation.js';
export { FREE_CANCEL_MS };

export interface BookingPlan {
  business: SnapshotBusiness;
  kind: BookingKind;
  input: ContactInput & { address: string; zip: string; notes?: string };
  /** Visit starts (epoch ms), ascending. */
  starts: number[];
  durationMinutes: number;
  priceCents: number;
  /** The kind's own columns: the cleaning job, or the service call's trade and issue. */
  fields: Partial<Prisma.BookingUncheckedCreateInput>;
  /** The operation that lists current open starts for this kind, named in refusals. */
  search: 'available_times' | 'find_service_call';
  /** Who the business is for the customer: "cleaners" or "pros". */
  searchFor: string;
  serviceCall?: ServiceCallMail;
}

export interface Booked {
  bookingId: string;
  manageToken: string;
  manageUrl: string;
  startsIso: string[];
  /** How the customer was asked to confirm: "e-mailed a@b.c" or "texted +1…"; null when nothing this server sends reaches them. */
  channel: string | null;
  /** Until when the pending booking holds its time (business-local ISO). */
  holdUntil: string;
  /** The closing sentences every `next` message shares (confirmation, cancellation, notes). */
  nextTail: string;
}

export const unavailable = (start: string, search: BookingPlan['search']) =>
  new AppError('time_unavailable', `The start ${start} is no longer available. Call ${search} for current open starts and pick another.`);

/** Days either side of a refused start searched for the nearest open ones. */
const NEAR_DAYS = 3;

/**
 * Open starts of the same business and job within a few days of `wanted`: for a recurring series
 * only first starts whose whole series is free, as find_cleaners and available_times offer them.
 */
async function openNear(ctx: Context, plan: BookingPlan, wanted: number): Promise<string[]> {
  const { business } = plan;
  const now = ctx.clock.now();
  const zone = business.timeZone;
  const frequency = plan.fields.frequency as Frequency | undefined;
  const series = frequency !== undefined && frequency !== 'once' && FREQUENCIES.includes(frequency);
  const day = dateToDayNumber(localDate(wanted, zone))!;
  const from = Math.max(dateToDayNumber(localDate(now, zone))!, day - NEAR_DAYS);
  const days = day + NEAR_DAYS - from + 1;
  // A series ends within its horizon from now, so its busy time reaches no further than that.
  const to = Math.max((from + days + 2) * DAY, series ? now + SERIES_DAYS * DAY : 0);
  const busy = (await ctx.search.busyOf([business.id], now - DAY, to)).get(business.id)!;
  const q = slotQuery(business, busy, plan.durationMinutes, now, { date: dayNumberToDate(from) }, days);
  const starts = openStarts(q).filter((s) => !series || wholeSeriesFree(q, s, frequency));
  return starts.map((s) => isoWithOffset(s, zone));
}

/**
 * A refused start the same customer (e-mail or phone) already holds with this business, pending
 * or confirmed: a retry without request_key. Its refusal says so instead of offering other starts,
 * which would invite a duplicate; it names neither the booking's id nor its token, which only
 * whoever booked it holds.
 */
async function alreadyHeld(ctx: Context, business: SnapshotBusiness, contact: { email: string | null; phone: string | null }, starts: number[], now: number) {
  const [held] = await ctx.prisma.$queryRaw<{ start: Date; status: string }[]>(Prisma.sql`
    SELECT v.start, b.status::text AS status FROM "BookingVisit" v JOIN "Booking" b ON b.id = v."bookingId"
    WHERE v."businessId" = ${business.id} AND v.active AND v.start = ANY(${starts.map((s) => new Date(s))}::timestamptz[])
      AND (b.status = 'confirmed' OR (b.status = 'pending' AND b."holdUntil" > ${new Date(now)}))
      AND (b."customerEmail" = ${contact.email?.toLowerCase() ?? null} OR b."customerPhone" = ${contact.phone})
    ORDER BY v.start LIMIT 1`);
  if (!held) return null;
  return new AppError(
    'time_unavailable',
    `This customer already holds the start ${isoWithOffset(held.start.getTime(), business.timeZone)} with ${business.name} ` +
      `(${held.status === 'pending' ? 'pending confirmation' : 'confirmed'}): check it with booking_status (or my_bookings when signed in), ` +
      'or pass the same request_key to retry safely. Book again only for a second, separate job.',
  );
}

/** ZIPs named in a refusal for a ZIP the business does not serve. */
const ZIPS_NAMED = 10;

/** A booking for an address outside the business's ZIPs: the ZIPs it serves, and the search that finds who serves this one. */
function notServed(business: SnapshotBusiness, zip: string, plan: BookingPlan) {
  const served = [...business.zips].sort();
  const named = served.slice(0, ZIPS_NAMED).join(', ') + (served.length > ZIPS_NAMED ? ` and ${served.length - ZIPS_NAMED} more` : '');
  const search = plan.search === 'available_times' ? 'find_cleaners' : plan.search;
  return invalid(
    `${business.name} does not serve ZIP ${zip}; it serves ${served.length ? named : 'no ZIP yet'}. If the address is in ZIP ${zip}, call ${search} with zip ${zip} for ${plan.searchFor} who serve it.`,
  );
}

/** Contact details for a booking: a name, and an e-mail (or a phone, for a business that texts). */
function contactOf(input: ContactInput, ctx: Context, business: SnapshotBusiness) {
  const contact = customerContact(input, ctx);
  if (!contact.email) {
    if (!contact.phone) throw invalid('customer_email is required to send the confirmation (or customer_phone, for a business that texts).');
    if (!business.textsCustomers) throw invalid(`${business.name} confirms bookings by e-mail only; customer_email is required.`);
  }
  return contact;
}

const tooManyPending = (count: number) =>
  new AppError(
    'too_many_pending',
    `There are already ${count} bookings waiting for confirmation from this customer or connection. ` +
      'Confirm them from the e-mail or text we sent (or let them lapse) before booking more.',
  );

/**
 * What every write that puts a business's booking visits on its calendar (a customer's booking,
 * book_job, a move) runs first: it takes the business's turn, then releases visits whose hold
 * lapsed in the way of these starts (they sit in the exclusion constraint until released).
 *
 * PostgreSQL checks the exclusion constraint after inserting a row, so two transactions writing
 * overlapping visits at once would each wait for the other's row: a deadlock, which it breaks by
 * failing one (40P01). Taking turns, the second sees the first's committed visit and meets the
 * constraint's own verdict (23P01). `first`: advisory locks taken before the turn, in order.
 * The turn gates the update, so it is taken before any visit row is locked.
 */
export function claimTurn(v: { businessId: string; starts: number[]; durationMs: number; now: number }, first: string[] = []): Prisma.Sql {
  return Prisma.sql`
    WITH turn AS MATERIALIZED (
      SELECT count(pg_advisory_xact_lock(hashtext(k)))
      FROM unnest(${[...first, `booking-visits:${v.businessId}`]}::text[]) AS l(k))
    UPDATE "BookingVisit" SET "active" = false
    WHERE EXISTS (SELECT 1 FROM turn) AND "businessId" = ${v.businessId} AND "active" AND "holdUntil" <= ${new Date(v.now)}
      AND EXISTS (
        SELECT 1 FROM unnest(${v.starts.map((s) => new Date(s))}::timestamptz[]) AS s(at)
        WHERE "start" < s.at + ${`${v.durationMs} milliseconds`}::interval AND "end" > s.at)`;
}

/**
 * Writes a booking's visits in its transaction (owners' book_job). An overlap with a live visit
 * or with blocked time fails with SQLSTATE 23P01 (isExclusionViolation), the constraint's and
 * the blocks trigger's verdict.
 */
export async function claimVisits(
  ctx: Pick<Context, 'search'>,
  tx: Tx,
  v: { bookingId: string; businessId: string; starts: number[]; durationMs: number; holdUntil: Date | null; now: number },
): Promise<void> {
  await tx.$executeRaw(claimTurn(v));
  await tx.bookingVisit.createMany({
    data: v.starts.map((s) => ({ bookingId: v.bookingId, businessId: v.businessId, start: new Date(s), end: new Date(s + v.durationMs), holdUntil: v.holdUntil })),
  });
  patchVisits(ctx, tx, v);
}

function patchVisits(ctx: Pick<Context, 'search'>, tx: AnyTx, v: { bookingId: string; businessId: string; starts: number[]; durationMs: number; holdUntil: Date | null }) {
  ctx.search.patchAfterCommit(tx, v.businessId, {
    add: v.starts.map((s) => ({ ref: v.bookingId, start: s, end: s + v.durationMs, ...(v.holdUntil ? { holdUntil: v.holdUntil.getTime() } : {}) })),
  });
}

/** What a customer's booking writes: the row, its visits, the confirmation and the event. */
interface BookingWrite {
  booking: Prisma.BookingUncheckedCreateInput & { id: string; createdAt: Date; holdUntil: Date };
  starts: number[];
  /** One id per start, chosen up front: the confirmation's calendar events are named after them. */
  visitIds: string[];
  durationMs: number;
  mail: OutboxRow[];
  event: EventColumns;
  who: { contactKey: string; requesterHash: string };
  limits: { perContact: number; perRequester: number };
}

/**
 * A customer's booking is the busiest write, so it runs in plain SQL on a plain connection with
 * prepared statements (measured: through the ORM its nine statements cost ~4 ms of CPU per
 * booking; now two statements cost well under one), sent together with BEGIN and COMMIT in one
 * round trip (db/sql.ts). The first takes an advisory lock on the customer, so two concurrent
 * bookings cannot both take their last unconfirmed place, then the business's turn, and releases
 * lapsed visits in the way (claimTurn). The second, whose snapshot starts after those locks,
 * counts the unconfirmed bookings of the customer and of the requester and, within the limits,
 * inserts the booking, its visits, its confirmation and its event, and closes the customer's
 * open conversations with the business; over a limit it fails (PB001, the count as its detail),
 * so the transaction rolls back. The requester's count takes no lock: one assistant books for
 * many customers at once, and serialising all of them would cost more than a burst passing that
 * wider limit by a few.
 */
async function writeBooking(tx: SqlTx, w: BookingWrite): Promise<{ position: string; at: Date }> {
  const b = w.booking;
  const now = b.createdAt;
  const locked = tx.query(Prisma.sql`
    WITH released AS (${claimTurn({ businessId: b.businessId, starts: w.starts, durationMs: w.durationMs, now: now.getTime() }, [`pending:${w.who.contactKey}`])} RETURNING 1)
    SELECT count(*) FROM released`, { fixed: true });
  const written = tx.query<{ position: string; at: Date }>(Prisma.sql`
    WITH counts AS (
      -- Counted only as far as each limit, each through its own pending_* partial index: the check
      -- reads a handful of rows however many holds exist. (The hold is tested with coalesce so that
      -- no other index over pending bookings can serve a count; migration pending_count_indexes.
      -- A contact key is an e-mail or a phone, never both.)
      SELECT ((SELECT count(*) FROM (SELECT 1 FROM "Booking" WHERE "status" = 'pending' AND "customerEmail" = ${w.who.contactKey}
                 AND coalesce("holdUntil", '-infinity') > ${now} LIMIT ${w.limits.perContact}) e)
            + (SELECT count(*) FROM (SELECT 1 FROM "Booking" WHERE "status" = 'pending' AND "customerPhone" = ${w.who.contactKey}
                 AND coalesce("holdUntil", '-infinity') > ${now} LIMIT ${w.limits.perContact}) p))::int AS contact,
             (SELECT count(*) FROM (SELECT 1 FROM "Booking" WHERE "status" = 'pending' AND "requesterHash" = ${w.who.requesterHash}
                AND coalesce("holdUntil", '-infinity') > ${now} LIMIT ${w.limits.perRequester}) r)::int AS requester
    ),
    allowed AS (SELECT 1 FROM counts WHERE contact < ${w.limits.perContact} AND requester < ${w.limits.perRequester}),
    booking AS (
      INSERT INTO "Booking" ("id", "businessId", "kind", "status", "manageTokenHash", "confirmTokenHash", "priceCents", "frequency",
        "bedrooms", "bathrooms", "cleanType", "sqft", "addOns", "pets", "trade", "issue", "details", "address", "zip", "notes",
        "customerName", "customerEmail", "customerPhone", "clientName", "credentialId", "requesterHash", "holdUntil", "createdAt")
      SELECT ${b.id}, ${b.businessId}, ${b.kind}::"BookingKind", 'pending', ${b.manageTokenHash}, ${b.confirmTokenHash}, ${b.priceCents}, ${b.frequency ?? 'once'},
        ${b.bedrooms ?? null}::int, ${b.bathrooms ?? null}::float8, ${b.cleanType ?? null}, ${b.sqft ?? null}::int, ${(b.addOns as string[] | undefined) ?? []}::text[], ${b.pets ?? false},
        ${b.trade ?? null}, ${b.issue ?? null}, ${b.details ?? null}, ${b.address}, ${b.zip}, ${b.notes ?? null},
        ${b.customerName}, ${b.customerEmail ?? null}, ${b.customerPhone ?? null}, ${b.clientName ?? null}, ${b.credentialId ?? null}, ${b.requesterHash ?? null}, ${b.holdUntil}, ${now}
      FROM allowed
      RETURNING "id"
    ),
    visits AS (
      INSERT INTO "BookingVisit" ("id", "bookingId", "businessId", "start", "end", "active", "holdUntil")
      SELECT v.id, booking."id", ${b.businessId}, v.start, v.start + ${`${w.durationMs} milliseconds`}::interval, true, ${b.holdUntil}
      FROM booking, unnest(${w.visitIds}::text[], ${w.starts.map((s) => new Date(s))}::timestamptz[]) AS v(id, start)
    ),
    mail AS (
      INSERT INTO "OutboxMessage" ("id", "channel", "to", "subject", "text", "html", "bookingId", "fromNumber", "attachments", "createdAt")
      SELECT m.id, m.channel, m."to", m.subject, m.text, m.html, booking."id", m."fromNumber", m.attachments::jsonb, ${now}
      FROM booking, unnest(${w.mail.map((m) => m.id)}::text[], ${w.mail.map((m) => m.channel)}::text[], ${w.mail.map((m) => m.to)}::text[],
        ${w.mail.map((m) => m.subject)}::text[], ${w.mail.map((m) => m.text)}::text[], ${w.mail.map((m) => m.html)}::text[],
        ${w.mail.map((m) => m.fromNumber)}::text[], ${w.mail.map((m) => (m.attachments ? JSON.stringify(m.attachments) : null))}::text[])
        AS m(id, channel, "to", subject, text, html, "fromNumber", attachments)
    ),
    event AS (
      INSERT INTO "Event" ("type", "businessId", "bookingId", "clientName", "data", "at")
      SELECT ${w.event.type}, ${w.event.businessId}, booking."id", ${w.event.clientName}, ${w.event.data}::jsonb, ${w.event.at}
      FROM booking
      RETURNING "position", "at"
    ),
    closed AS (${closeConversationsOnBooking({ businessId: b.businessId, credentialId: b.credentialId ?? null, at: now, booked: Prisma.sql`SELECT 1 FROM booking` })})
    SELECT event."position", event."at",
      CASE WHEN event."position" IS NULL THEN porchlight_refuse_pending(greatest(counts.contact, counts.requester)) END
    FROM counts LEFT JOIN event ON true`,
    // Prepared: PostgreSQL would otherwise parse and plan this statement on every booking.
    { fixed: true, last: true },
  );
  const [, [row]] = await Promise.all([locked, written]);
  return { position: row!.position, at: row!.at };
}

/** The count writeBooking's refusal over the limit of unconfirmed bookings reached; undefined for any other error. */
const pendingRefused = (err: unknown) => (err instanceof DatabaseError && err.code === 'PB001' ? Number(err.detail) : undefined);

export async function book(ctx: Context, plan: BookingPlan): Promise<Booked> {
  const { business, input, starts } = plan;
  const contact = contactOf(input, ctx, business);
  if (!business.zips.has(input.zip)) throw notServed(business, input.zip, plan);
  const now = ctx.clock.now();
  const durationMs = plan.durationMinutes * MINUTE;
  const zone = business.timeZone;
  const startsIso = starts.map((s) => isoWithOffset(s, zone));
  const taken = () => unavailable(startsIso[0]!, plan.search);

  // Each visit must be an open start given the others of the same series (and the snapshot's
  // busy time; what it has not heard of yet, the exclusion constraint refuses).
  const busy = (await ctx.search.busyOf([business.id], starts[0]! - DAY, starts.at(-1)! + 2 * DAY)).get(business.id)!;
  const q = slotQuery(business, busy, plan.durationMinutes, now, {}, 1);
  const series: Busy[] = [];
  for (const [i, start] of starts.entries()) {
    if (!isOpenStart({ ...q, busy: [...busy, ...series] }, start)) {
      // A recurring series is moved as a whole: other first starts; a turnover visit on its own.
      const wanted = plan.fields.frequency === 'turnover_series' ? start : starts[0]!;
      throw (await alreadyHeld(ctx, business, contact, [start], now)) ?? await withOpenStarts(unavailable(startsIso[i]!, plan.search), wanted, () => openNear(ctx, plan, wanted));
    }
    series.push({ start, end: start + durationMs });
  }

  const manageToken = newToken('mt_');
  const confirmToken = newToken('ct_');
  const manageUrl = ctx.links.manage(manageToken);
  const holdUntil = new Date(now + ctx.config.pendingHoldMinutes * MINUTE);
  const credential = signedIn(ctx.credential);
  const who = {
    contactKey: (contact.email ?? contact.phone!).toLowerCase(),
    requesterHash: requesterOf(ctx),
  };
  const holdIso = isoWithOffset(holdUntil.getTime(), zone);
  const notes = business.customerNotes.trim() || null;
  const bookingId = randomUUID();
  const createdAt = new Date(now);
  const event = {
    type: 'booking.created' as const,
    businessId: business.id,
    bookingId,
    clientName: ctx.clientName,
    data: { customerName: contact.name, start: startsIso[0] },
  };
  const visitIds = starts.map(() => randomUUID());
  // By e-mail, or by text for a business that texts, when this server delivers it; otherwise the
  // confirmation is still queued (a staging outbox keeps it) and `next` says the business will call.
  const reach = customerReach(ctx.config, contact, business.textsCustomers);
  const to = reach ? { email: reach.channel === 'email' ? reach.to : null, phone: reach.channel === 'sms' ? reach.to : null } : { email: contact.email, phone: contact.phone };
  // The customer's calendar event (e-mail only): tentative until they confirm.
  const invite = to.email
    ? inviteAttachment(ctx.config, {
        method: 'REQUEST',
        id: bookingId,
        series: starts.length > 1,
        sequence: 0,
        status: 'pending',
        business: { name: business.name, email: business.email },
        customer: { name: contact.name, email: to.email },
        summary: `${plan.serviceCall?.job ?? 'Cleaning'} with ${business.name}`,
        location: input.address,
        description: `Booking ${bookingId}. Confirm, check or cancel it: ${manageUrl}`,
        visits: starts.map((s, i) => ({ id: visitIds[i]!, start: new Date(s), end: new Date(s + durationMs) })),
        now: new Date(now),
      })
    : null;
  const mail = confirmationMail(
    to,
    {
      bookingId,
      businessName: business.name,
      businessPhone: business.phone,
      customerName: contact.name,
      address: input.address,
      starts: startsIso,
      price: plan.priceCents / 100,
      confirmUrl: ctx.links.confirm(confirmToken, manageToken),
      manageUrl,
      holdUntil: holdIso,
      freeCancellation: starts[0]! - now >= FREE_CANCEL_MS,
      customerNotes: notes,
      serviceCall: plan.serviceCall,
      invite,
      zone,
    },
  );
  // A phone-only customer's confirmation leaves from the business's own number when it texts from one.
  if (mail.channel === 'sms') mail.from = await businessTextNumber(ctx.prisma, business.id);
  try {
    await ctx.sql(async (tx) => {
      const written = await writeBooking(tx, {
        booking: {
          ...plan.fields,
          id: bookingId,
          businessId: business.id,
          kind: plan.kind,
          manageTokenHash: hashToken(manageToken),
          confirmTokenHash: hashToken(confirmToken),
          priceCents: plan.priceCents,
          address: input.address,
          zip: input.zip,
          notes: input.notes ?? null,
          customerName: contact.name,
          customerEmail: contact.email?.toLowerCase() ?? null,
          customerPhone: contact.phone,
          clientName: ctx.clientName ?? null,
          credentialId: credential?.id ?? null,
          requesterHash: who.requesterHash,
          holdUntil,
          createdAt,
        },
        starts,
        visitIds,
        durationMs,
        mail: ctx.outbox.rows(mail),
        event: eventColumns(event, createdAt),
        who,
        limits: ctx.config.pendingLimits,
      });
      patchVisits(ctx, tx, { bookingId, businessId: business.id, starts, durationMs, holdUntil });
      ctx.outbox.queued(tx);
      ctx.emit.recorded(tx, event, written);
    });
  } catch (err) {
    const pending = pendingRefused(err);
    if (pending !== undefined) throw tooManyPending(pending);
    if (isExclusionViolation(err)) throw (await alreadyHeld(ctx, business, contact, starts, now)) ?? await withOpenStarts(taken(), starts[0]!, () => openNear(ctx, plan, starts[0]!));
    throw err;
  }

  const channel = reach ? toldBy(reach) : null;
  const cancellation =
    starts[0]! - now >= FREE_CANCEL_MS
      ? 'Cancellation is free until 24 hours before the start.'
      : 'The start is less than 24 hours away, so cancelling is no longer free: the business may charge under its own policy.';
  return {
    bookingId,
    manageToken,
    manageUrl,
    startsIso,
    channel,
    holdUntil: holdIso,
    nextTail:
      (channel
        ? `We ${channel} a link to confirm; the booking stays pending until the customer confirms it there, and if that has not happened by ${holdIso} it lapses and the time is released. `
        : `${unreachable(contact, business.textsCustomers, business)} The booking stays pending until it is confirmed, and if that has not happened by ${holdIso} it lapses and the time is released. `) +
      cancellation +
      (notes ? ` Notes from ${business.name} for customers: ${notes}` : ''),
  };
}
