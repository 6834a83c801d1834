/**
 * Customers' reads of a menu business: business_info, service_menu, estimate_visit and
 * visit_times. They read the in-memory state (store.ts); nothing here reveals a technician's
 * hours, time off or visits, only names and aggregate starts.
 */
import type { z } from 'zod';
import type { Context } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { dateToDayNumber, isoWithOffset, localDate, readDate } from '../core/time.js';
import { describePriceList } from '../owners/prices.js';
import { estimateVisit, requestOnlyReason, type Estimate } from './estimate.js';
import { qualifiedFor, visitStarts, type VisitPlan } from './schedule.js';
import { MENU_KINDS, type MenuState, type MenuTechnician } from './store.js';
import { publicServices } from './views.js';
import { hoursMap } from '../core/hours.js';
import { appointmentOffer } from '../appointments/offer.js';
import { daySpan } from '../appointments/schedule.js';
import type { businessInfoInput, estimateVisitInput, serviceMenuInput, visitTimesInput } from './inputs.js';
import { loadPublicKnowledge } from '../receptionist/knowledge.js';

const NO_PAYMENT = 'Porchlight collects no payment for visits: the business charges for its work itself.';
const VISIT_CANCELLATION =
  'Visit requests can be withdrawn at any time with cancel_visit_request. A confirmed visit can be cancelled that way until 24 hours before its start; closer to it, ask the team in the conversation (they cancel).';

const APPOINTMENT_CANCELLATION =
  'Appointments can be cancelled with cancel_appointment until 24 hours before the start (an upfront payment is refunded); closer to it, ask the business in the conversation.';
const UPFRONT_PAYMENT = 'Appointment services marked upfront are paid by card through the payment provider when booked.';

/** How this business's visits can be arranged: book (some selections book at once), request, or none. */
function visitBooking(state: MenuState): 'book' | 'request' | 'none' {
  if (state.menu.services.length === 0) return 'none';
  const bookable = state.menu.services.some(
    (s) => s.priceKind === 'fixed' && s.durationMinutes !== null && state.team.some((t) => qualifiedFor(t, [s.id])),
  );
  return state.menu.schedulingEnabled && bookable ? 'book' : 'request';
}

export async function businessInfoService(input: z.output<typeof businessInfoInput>, ctx: Context) {
  const business = await ctx.prisma.business.findUnique({ where: { slug: input.business }, select: { id: true, kind: true } });
  if (!business) throw notFound(`No business has the id "${input.business}". Use the exact id the business shared, or find it with find_businesses (zip or city, and what the person wants).`);
  const page = ctx.links.businessPage(input.business);
  if (!MENU_KINDS.includes(business.kind)) {
    // Cleaners and pros: their price list, booked through their own operations.
    const b = await ctx.prisma.business.findUniqueOrThrow({
      where: { slug: input.business },
      select: { slug: true, name: true, kind: true, city: true, state: true, zip: true, phone: true, website: true, customerNotes: true, minNoticeMinutes: true, priceList: true, hours: true },
    });
    const knowledge = await loadPublicKnowledge(ctx.prisma, business.id);
    return {
      business: b.slug,
      name: b.name,
      type: b.kind,
      address: `${b.city}, ${b.state} ${b.zip}`,
      phone: b.phone,
      website: b.website,
      pageUrl: page,
      hours: hoursMap(b.hours),
      publishedPage: knowledge.published,
      sharedSources: knowledge.shared,
      menuRevision: null,
      services: [],
      prices: describePriceList(b.priceList).prices,
      policies: {
        cancellation:
          'Cancel free of charge until 24 hours before the start (cancel_booking); closer to it, the business may charge under its own policy.',
        payment: 'The price is firm for the described job, with no added fees; the business charges for its work itself.',
        notice: noticeText(b.minNoticeMinutes),
        customerNotes: b.customerNotes,
      },
      booking: { visits: 'none' as const, appointments: 'none' as const, how: b.kind === 'cleaning' ? 'find_cleaners, available_times and book_cleaning' : 'find_service_call and book_service_call' },
    };
  }
  const state = await ctx.menus.state(input.business);
  const b = state.business;
  const visits = visitBooking(state);
  const appointments = appointmentOffer(state, ctx.payments.provider);
  const ways = [
    visits === 'book'
      ? 'estimate_visit, then visit_times and book_visit (or request_visit for anything visit_times marks request_only)'
      : visits === 'request'
        ? 'estimate_visit, then request_visit: staff confirm a time'
        : null,
    appointments !== 'none' ? 'appointments: contact_business, then appointment_times and book_appointment' : null,
  ].filter((w): w is string => w !== null);
  return {
    business: b.slug,
    name: b.name,
    type: b.kind,
    address: `${b.city}, ${b.state} ${b.zip}`,
    phone: b.phone,
    website: b.website,
    pageUrl: page,
    hours: hoursMap(b.hours),
    publishedPage: state.knowledge.published,
    sharedSources: state.knowledge.shared,
    menuRevision: state.menu.revision,
    services: publicServices(state.menu),
    prices: [],
    policies: {
      cancellation: appointments === 'none' ? VISIT_CANCELLATION : `${VISIT_CANCELLATION} ${APPOINTMENT_CANCELLATION}`,
      payment: appointments === 'upfront' ? `${NO_PAYMENT} ${UPFRONT_PAYMENT}` : NO_PAYMENT,
      notice: noticeText(b.minNoticeMinutes),
      customerNotes: b.customerNotes,
    },
    booking: { visits, appointments, how: ways.length ? ways.join('; ') : 'contact_business' },
  };
}

const noticeText = (minutes: number) =>
  minutes >= 1440 && minutes % 1440 === 0
    ? `Starts at least ${minutes / 1440} day${minutes === 1440 ? '' : 's'} ahead.`
    : `Starts at least ${Math.round((minutes / 60) * 10) / 10} hours ahead.`;

export async function serviceMenuService(input: z.output<typeof serviceMenuInput>, ctx: Context) {
  const state = await ctx.menus.state(input.business);
  return {
    business: state.business.slug,
    name: state.business.name,
    menuRevision: state.menu.revision,
    services: publicServices(state.menu),
    technicians: state.team.map((t) => t.name),
    booking: visitBooking(state),
  };
}

/** The estimate and, when something is incomplete, why the selection can only be requested. */
function estimateOf(state: MenuState, selections: z.output<typeof estimateVisitInput>['selections']) {
  const estimate = estimateVisit(state.menu, selections);
  const reason = requestOnlyReason(estimate, state.menu, state.team);
  return { estimate, reason: reason && `${reason[0]!.toUpperCase()}${reason.slice(1)}` };
}

function estimateResult(state: MenuState, estimate: Estimate, reason: string | null) {
  return {
    business: state.business.slug,
    menuRevision: estimate.menuRevision,
    estimateCents: estimate.estimateCents,
    partial: estimate.partial,
    durationMinutes: estimate.durationMinutes,
    items: estimate.items,
    requestOnly: reason !== null,
    reason,
  };
}

export async function estimateVisitService(input: z.output<typeof estimateVisitInput>, ctx: Context) {
  const state = await ctx.menus.state(input.business);
  const { estimate, reason } = estimateOf(state, input.selections);
  return estimateResult(state, estimate, reason);
}

/** The visit as the schedule sees it, for a selection whose durations are all known. */
export function visitPlan(state: MenuState, estimate: Estimate, now: number, over: Partial<VisitPlan> = {}): VisitPlan {
  return {
    zone: state.business.timeZone,
    businessHours: state.business.hours,
    blocks: state.blocks,
    minNoticeMinutes: state.business.minNoticeMinutes,
    now,
    bufferMinutes: state.menu.bufferMinutes,
    durationMinutes: estimate.durationMinutes!,
    serviceIds: estimate.serviceIds,
    ...over,
  };
}

/** A technician by the name a customer typed (case and spacing do not matter). */
export function technicianNamed(team: readonly MenuTechnician[], name: string | undefined): MenuTechnician | undefined {
  if (name === undefined) return undefined;
  const wanted = name.trim().replace(/\s+/g, ' ').toLowerCase();
  return team.find((t) => t.name.toLowerCase() === wanted);
}

export async function visitTimesService(input: z.output<typeof visitTimesInput>, ctx: Context) {
  const now = ctx.clock.now();
  let state = await ctx.menus.state(input.business, daySpan(dateToDayNumber(input.date)!));
  // The zone is known once the business is read; a past date is then read as today.
  const asked = readDate(input.date, state.business.timeZone, now);
  const date = asked.date ?? localDate(now, state.business.timeZone);
  if (date !== input.date) state = await ctx.menus.state(input.business, daySpan(dateToDayNumber(date)!));
  const { estimate, reason } = estimateOf(state, input.selections);
  const base = { ...estimateResult(state, estimate, reason), date, timeOfDay: input.time_of_day, note: asked.note };
  const preferred = technicianNamed(state.team, input.preferred_technician);
  if (input.preferred_technician !== undefined && !preferred) {
    throw notFound(`${state.business.name} has no technician named "${input.preferred_technician}". service_menu lists their names; or leave preferred_technician out.`);
  }
  if (reason !== null) return { ...base, preferredTechnician: preferred?.name ?? null, starts: [] };
  if (preferred && !qualifiedFor(preferred, estimate.serviceIds)) {
    throw invalid(`${preferred.name} does not do all of the selected services in one visit; leave preferred_technician out to see the team's times.`);
  }
  const starts = visitStarts(visitPlan(state, estimate, now), state.team, date, {
    timeOfDay: input.time_of_day,
    technicianId: preferred?.id,
  });
  return { ...base, preferredTechnician: preferred?.name ?? null, starts: starts.map((s) => isoWithOffset(s, state.business.timeZone)) };
}
