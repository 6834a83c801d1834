/**
 * The owner's side of a menu business: service_setup (the private view), update_service_menu
 * and update_staff_availability. Both updates replace what they cover in one transaction,
 * under the same lock as bookings, so a booking sees either the old or the new setup whole.
 */
import { DateTime } from 'luxon';
import type { z } from 'zod';
import type { OwnerContext } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { AppError, invalid, notFound } from '../errors.js';
import { DAY, formatInstant, isoWithOffset, parseStart } from '../core/time.js';
import { minuteWindows, outsideView, WEEKDAY_NAMES, type DayWindow, type DaysHours, type MinuteWindow } from '../core/hours.js';
import { planMenu, sameMenu, type MenuData } from './menu.js';
import { stillFits } from './schedule.js';
import { loadMenuState, type MenuState } from './store.js';
import { lockBusinessVisits, QUEUED } from './visits.js';
import type { EstimateItem } from './estimate.js';
import type { updateServiceMenuInput, updateStaffAvailabilityInput } from './inputs.js';

/** Time off and visits further ahead than this are not part of the private view. */
const SETUP_HORIZON = 3 * 365 * DAY;
const RECENT_CANCELLED = 7 * DAY;
const VISITS_MAX = 200;
/** A refused team change names this many of the visits it would strand. */
const STRANDED_SHOWN = 10;

function ownerMenu(menu: MenuData) {
  return {
    services: menu.services.map((s) => ({
      serviceId: s.id,
      name: s.name,
      description: s.description,
      priceKind: s.priceKind,
      priceCents: s.priceCents,
      durationMinutes: s.durationMinutes,
      group: s.group,
      addOnIds: s.addOnIds,
      scentIds: s.scentIds,
    })),
    addOns: menu.addOns.map((a) => ({ addOnId: a.id, name: a.name, priceCents: a.priceCents, durationMinutes: a.durationMinutes })),
    scents: menu.scents.map((s) => ({ scentId: s.id, name: s.name })),
  };
}

function ownerStaff(state: MenuState) {
  const zone = state.business.timeZone;
  return state.team.map((t) => ({
    staffId: t.id,
    name: t.name,
    serviceIds: [...t.serviceIds],
    hours: t.hours.map((h) => ({ weekday: h.weekday, startMinute: h.startMinute, endMinute: h.endMinute })),
    outsideOpeningHours: outsideView(t.hours, state.business.hours),
    timeOff: t.timeOff.map((o) => ({ start: isoWithOffset(o.start, zone), end: isoWithOffset(o.end, zone) })),
  }));
}

export async function serviceSetupService(ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const state = await loadMenuState(ctx.prisma, { id: businessId }, now, now + SETUP_HORIZON, 'owner');
  const zone = state.business.timeZone;
  const visits = await ctx.prisma.visit.findMany({
    where: {
      businessId,
      OR: [{ status: 'pending' }, { status: 'confirmed', end: { gt: new Date(now - DAY) } }, { status: 'cancelled', cancelledAt: { gt: new Date(now - RECENT_CANCELLED) } }],
    },
    orderBy: [{ start: { sort: 'asc', nulls: 'last' } }, { createdAt: 'asc' }],
    take: VISITS_MAX,
  });
  const iso = (d: Date | null) => (d ? isoWithOffset(d.getTime(), zone) : null);
  return {
    menuRevision: state.menu.revision,
    schedulingEnabled: state.menu.schedulingEnabled,
    bufferMinutes: state.menu.bufferMinutes,
    ...ownerMenu(state.menu),
    staff: ownerStaff(state),
    visits: visits.map((v) => ({
      visitId: v.id,
      status: v.status,
      source: v.source,
      start: iso(v.start),
      end: iso(v.end),
      technician: v.technicianName,
      staffId: v.technicianId,
      customerName: v.customerName,
      selections: v.selections as unknown as EstimateItem[],
      estimateCents: v.estimateCents,
      partial: v.partial,
      priceCents: v.priceCents,
      durationMinutes: v.durationMinutes,
      preferredDate: v.preferredDate,
      preferredTime: v.preferredTime,
      preferredTechnician: v.preferredTechnician,
      firstVisit: v.firstVisit,
      note: v.note,
      inquiryId: v.conversationId,
      clientName: v.clientName,
      createdAt: formatInstant(v.createdAt, zone),
      cancelledBy: v.cancelledBy,
    })),
  };
}

/** The menu row exists from the first change on; setup reads a missing one as empty. */
async function ensureMenu(tx: Tx, businessId: string) {
  await tx.serviceMenu.upsert({ where: { businessId }, create: { businessId }, update: {} });
}

export async function updateServiceMenuService(input: z.output<typeof updateServiceMenuInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const planned = planMenu(input);
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    await lockBusinessVisits(ctx, tx, businessId);
    const state = await loadMenuState(tx, { id: businessId }, now, now, 'owner');
    if (input.menu_revision !== state.menu.revision) {
      throw new AppError(
        'stale_menu',
        `The menu changed since you read it (menu_revision is now ${state.menu.revision}). Read service_setup again, apply the owner's change to that menu, and send its menu_revision.`,
      );
    }
    if (sameMenu(planned, state.menu)) return { menuRevision: state.menu.revision, changed: false, ...ownerMenu({ ...planned, revision: state.menu.revision }) };
    const revision = state.menu.revision + 1;
    await ensureMenu(tx, businessId);
    await tx.serviceMenu.update({ where: { businessId }, data: { revision, updatedAt: new Date(now) } });
    await tx.menuService.deleteMany({ where: { businessId } });
    await tx.menuAddOn.deleteMany({ where: { businessId } });
    await tx.menuScent.deleteMany({ where: { businessId } });
    await tx.menuAddOn.createMany({ data: planned.addOns.map((a, position) => ({ ...a, businessId, position })) });
    await tx.menuScent.createMany({ data: planned.scents.map((s, position) => ({ ...s, businessId, position })) });
    await tx.menuService.createMany({ data: planned.services.map((s, position) => ({ ...s, businessId, position })) });
    // A technician cannot stay set up for a service that left the menu.
    const kept = new Set(planned.services.map((s) => s.id));
    for (const t of state.team) {
      const serviceIds = t.serviceIds.filter((id) => kept.has(id));
      if (serviceIds.length !== t.serviceIds.length) await tx.staffMember.update({ where: { id: t.id }, data: { serviceIds } });
    }
    return { menuRevision: revision, changed: true, ...ownerMenu({ ...planned, revision }) };
  }, QUEUED);
}

/**
 * A time-off bound as the owner gives it: ISO with an offset or Z, or business-local
 * "YYYY-MM-DDTHH:MM", or a whole local date ("YYYY-MM-DD": from its start, or, as an end,
 * through its end, as people say "off from the 24th to the 26th").
 */
/** A member's hours in either form (days by name change only the days sent), sorted, none overlapping. */
function staffHours(input: readonly MinuteWindow[] | DaysHours, current: readonly DayWindow[], label: string): DayWindow[] {
  const hours = minuteWindows(input, current).sort((a, b) => a.weekday - b.weekday || a.start_minute - b.start_minute);
  hours.forEach((h, j) => {
    const day = WEEKDAY_NAMES[h.weekday];
    if (h.end_minute <= h.start_minute) throw invalid(`${label} has hours on ${day} that end (${h.end_minute}) before they start (${h.start_minute}).`);
    const next = hours[j + 1];
    if (next && next.weekday === h.weekday && next.start_minute < h.end_minute) {
      throw invalid(`${label} has overlapping hours on ${day}; give each working window once.`);
    }
  });
  return hours.map((h) => ({ weekday: h.weekday, startMinute: h.start_minute, endMinute: h.end_minute }));
}

export function timeOffBound(value: string, zone: string, as: 'start' | 'end'): number | null {
  const exact = parseStart(value);
  if (exact !== null) return exact;
  if (/^20\d{2}-\d{2}-\d{2}$/.test(value)) {
    const day = DateTime.fromISO(value, { zone });
    if (!day.isValid) return null;
    return (as === 'start' ? day.startOf('day') : day.plus({ days: 1 }).startOf('day')).toMillis();
  }
  if (/^20\d{2}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) {
    const local = DateTime.fromISO(value, { zone });
    return local.isValid ? local.toMillis() : null;
  }
  return null;
}

export async function updateStaffAvailabilityService(input: z.output<typeof updateStaffAvailabilityInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    await lockBusinessVisits(ctx, tx, businessId);
    const state = await loadMenuState(tx, { id: businessId }, now, now + SETUP_HORIZON, 'owner');
    const zone = state.business.timeZone;
    const services = new Set(state.menu.services.map((s) => s.id));
    const existing = new Map(state.team.map((t) => [t.id, t]));
    const names = new Set<string>();
    const team = input.staff.map((s, i) => {
      const label = `Staff member ${i + 1} (${s.name})`;
      if (s.staff_id !== undefined && !existing.has(s.staff_id)) {
        throw notFound(`Your team has no staff_id "${s.staff_id}". Use staff_id values from service_setup, or leave staff_id out for someone new.`);
      }
      const key = s.name.trim().toLowerCase();
      if (names.has(key)) throw invalid(`Two staff members are named "${s.name}"; customers choose technicians by name, so give each a distinct name.`);
      names.add(key);
      const unknown = s.service_ids.find((id) => !services.has(id));
      if (unknown) throw invalid(`${label} lists service "${unknown}", which is not on the menu. Use service ids from service_setup.`);
      const hours = staffHours(s.hours, s.staff_id === undefined ? [] : existing.get(s.staff_id)!.hours, label);
      const timeOff = s.time_off.map((o) => {
        const start = timeOffBound(o.start, zone, 'start');
        const end = timeOffBound(o.end, zone, 'end');
        if (start === null || end === null) {
          throw invalid(`${label} has a time_off bound that is neither an ISO time with an offset nor a local YYYY-MM-DD or YYYY-MM-DDTHH:MM, in the years 2000-2099.`);
        }
        if (end <= start) throw invalid(`${label} has a time_off range that ends before it starts.`);
        return { start, end };
      });
      return {
        id: s.staff_id,
        name: s.name.trim(),
        serviceIds: [...new Set(s.service_ids)],
        hours,
        timeOff,
      };
    });

    // Confirmed visits still ahead (or under way) must keep a technician who can do them.
    const held = await tx.visit.findMany({
      where: { businessId, status: 'confirmed', end: { gt: new Date(now) } },
      select: { id: true, start: true, end: true, serviceIds: true, technicianId: true, technicianName: true, customerName: true },
      orderBy: { start: 'asc' },
    });
    const stranded = held.flatMap((v) => {
      const after = team.find((t) => t.id !== undefined && t.id === v.technicianId);
      const visit = { start: v.start!.getTime(), end: v.end!.getTime(), serviceIds: v.serviceIds };
      if (after && stillFits(zone, after, visit)) return [];
      const why = after ? `${v.technicianName}'s new services, hours or time off no longer cover it` : `${v.technicianName} would leave the team`;
      return [`${v.id} (${isoWithOffset(visit.start, zone)}, ${v.customerName}): ${why}`];
    });
    if (stranded.length) {
      const shown = stranded.slice(0, STRANDED_SHOWN);
      throw invalid(
        `This change would strand ${stranded.length === 1 ? 'the confirmed visit' : `${stranded.length} confirmed visits`} ${shown.join('; ')}` +
          `${stranded.length > shown.length ? `; and ${stranded.length - shown.length} more` : ''}. ` +
          'Keep their technicians available for them, or cancel them first with cancel_business_visit.',
      );
    }

    await ensureMenu(tx, businessId);
    await tx.serviceMenu.update({
      where: { businessId },
      data: {
        ...(input.scheduling_enabled !== undefined ? { schedulingEnabled: input.scheduling_enabled } : {}),
        ...(input.buffer_minutes !== undefined ? { bufferMinutes: input.buffer_minutes } : {}),
      },
    });
    const keep = team.flatMap((t) => (t.id ? [t.id] : []));
    await tx.staffMember.deleteMany({ where: { businessId, id: { notIn: keep } } });
    await tx.staffHours.deleteMany({ where: { staffId: { in: keep } } });
    await tx.staffTimeOff.deleteMany({ where: { staffId: { in: keep } } });
    for (const [position, t] of team.entries()) {
      const data = { name: t.name, position, serviceIds: t.serviceIds };
      const id = t.id ? (await tx.staffMember.update({ where: { id: t.id }, data, select: { id: true } })).id : (await tx.staffMember.create({ data: { ...data, businessId }, select: { id: true } })).id;
      await tx.staffHours.createMany({ data: t.hours.map((h) => ({ ...h, staffId: id })) });
      await tx.staffTimeOff.createMany({ data: t.timeOff.map((o) => ({ staffId: id, start: new Date(o.start), end: new Date(o.end) })) });
    }
    const after = await loadMenuState(tx, { id: businessId }, now, now + SETUP_HORIZON, 'owner');
    return { schedulingEnabled: after.menu.schedulingEnabled, bufferMinutes: after.menu.bufferMinutes, staff: ownerStaff(after) };
  }, QUEUED);
}
