import { DateTime } from 'luxon';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { ownBusinessId } from '../auth/credentials.js';
import { formatHHMM } from '../availability/time.js';
import { describePriceList } from './prices.js';
import type { noteToOwner, setCustomerNotes } from './operations.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const RECENT_NOTES = 20;

export async function myBusinessService(ctx: Context) {
  const businessId = ownBusinessId(ctx.credential);
  const business = await ctx.prisma.business.findUniqueOrThrow({
    where: { id: businessId },
    include: {
      hours: true,
      serviceZips: { select: { zip: true }, orderBy: { zip: 'asc' } },
      ownerNotes: { orderBy: { createdAt: 'desc' }, take: RECENT_NOTES },
    },
  });
  // "This month" is the business's own calendar month.
  const monthStart = DateTime.fromMillis(ctx.clock.now(), { zone: business.timeZone }).startOf('month').toJSDate();
  const counts = await ctx.prisma.booking.groupBy({
    by: ['status'],
    where: { businessId, createdAt: { gte: monthStart } },
    _count: { _all: true },
    _sum: { priceCents: true },
  });
  const count = (status: string) => counts.find((c) => c.status === status)?._count._all ?? 0;
  const booked = counts.filter((c) => c.status === 'confirmed' || c.status === 'done');
  const { prices, addOns } = describePriceList(business.priceList);
  return {
    proId: business.slug,
    name: business.name,
    kind: business.kind,
    city: business.city,
    state: business.state,
    zip: business.zip,
    timeZone: business.timeZone,
    phone: business.phone,
    email: business.email,
    website: business.website,
    textsCustomers: business.textsCustomers,
    minNoticeMinutes: business.minNoticeMinutes,
    customerNotes: business.customerNotes,
    prices,
    addOns,
    serviceZips: business.serviceZips.map((z) => z.zip),
    hours: WEEKDAYS.map((day, weekday) => {
      const h = business.hours.find((x) => x.weekday === weekday);
      return { weekday, day, hours: h ? `${formatHHMM(h.startMinute)}-${formatHHMM(h.endMinute)}` : 'closed' };
    }),
    // No public booking page or receptionist knowledge page is published yet; null says so.
    bookingPage: null,
    knowledgePage: null,
    pipeline: {
      month: DateTime.fromJSDate(monthStart, { zone: business.timeZone }).toFormat('yyyy-MM'),
      pending: count('pending'),
      confirmed: count('confirmed'),
      done: count('done'),
      cancelled: count('cancelled'),
      noShow: count('no_show'),
      bookedValue: booked.reduce((sum, c) => sum + (c._sum.priceCents ?? 0), 0) / 100,
    },
    ownerNotes: business.ownerNotes.map((n) => ({ noteId: n.id, text: n.text, clientName: n.clientName, at: n.createdAt.toISOString() })),
  };
}

export async function setCustomerNotesService(input: z.output<typeof setCustomerNotes.input>, ctx: Context) {
  const businessId = ownBusinessId(ctx.credential);
  // Read and replace in one transaction so `previous` is exactly what was overwritten.
  return ctx.prisma.$transaction(async (tx) => {
    const before = await tx.business.findUniqueOrThrow({ where: { id: businessId }, select: { customerNotes: true } });
    await tx.business.update({ where: { id: businessId }, data: { customerNotes: input.notes } });
    return { customerNotes: input.notes, previous: before.customerNotes };
  });
}

export async function noteToOwnerService(input: z.output<typeof noteToOwner.input>, ctx: Context) {
  const businessId = ownBusinessId(ctx.credential);
  const note = await ctx.prisma.ownerNote.create({ data: { businessId, text: input.note, clientName: ctx.clientName ?? null } });
  return { saved: true, noteId: note.id, at: note.createdAt.toISOString() };
}
