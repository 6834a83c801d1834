import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import { describePriceList } from './prices.js';
import { formatWindow, hoursMap } from '../core/hours.js';
import { pipelineReport } from '../leads/pipeline.js';
import { notFound } from '../errors.js';
import type { noteToOwnerInput, setCustomerNotesInput } from './inputs.js';
import { MENU_KINDS } from '../menus/store.js';
import { publicServices } from '../menus/views.js';
import { publishedPage } from '../receptionist/knowledge.js';
import { calendarFeedUrl } from '../calendar/feed.js';
import { formatInstant } from '../core/time.js';
import { businessZone } from '../db/business-zone.js';
import { shownLinks } from '../search/catalog.js';
import { ownerProfileLinks } from '../profile-links/service.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const RECENT_NOTES = 20;

export async function myBusinessService(ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const business = await ctx.prisma.business.findUniqueOrThrow({
    where: { id: businessId },
    include: {
      hours: true,
      serviceZips: { select: { zip: true }, orderBy: { zip: 'asc' } },
      ownerNotes: { orderBy: { createdAt: 'desc' }, take: RECENT_NOTES },
      receptionist: { select: { published: true, publishedAt: true } },
    },
  });
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
    hours: hoursMap(business.hours),
    bookingPage: ctx.links.businessPage(business.slug),
    calendarFeedUrl: await calendarFeedUrl(ctx, businessId),
    profileLinks: await ownerProfileLinks(ctx, businessId, business.timeZone),
    knowledgePage: publishedPage(business.receptionist, business.timeZone),
    // The same computation as the pipeline operation, for this business-local month.
    pipeline: await pipelineReport(ctx, businessId, business.timeZone),
    ownerNotes: business.ownerNotes.map((n) => ({ noteId: n.id, text: n.text, clientName: n.clientName, at: formatInstant(n.createdAt, business.timeZone) })),
  };
}

/** A business's weekly hours, one line per weekday, local "HH:MM-HH:MM" or "closed". */
function weekHours(hours: { weekday: number; startMinute: number; endMinute: number }[]) {
  return WEEKDAYS.map((day, weekday) => {
    const h = hours.find((x) => x.weekday === weekday);
    return { weekday, day, hours: h ? formatWindow(h) : 'closed' };
  });
}

/** The public page of a business (/b/<slug>): what a customer needs to decide and to book. */
export async function businessPageService(slug: string, ctx: Context) {
  const unknown = () => notFound(`No business has the id "${slug.slice(0, 100)}".`);
  if (!/^[a-z0-9-]{1,100}$/.test(slug)) throw unknown();
  const business = await ctx.prisma.business.findUnique({
    where: { slug },
    select: {
      slug: true, name: true, kind: true, city: true, state: true, timeZone: true, phone: true, website: true, textsCustomers: true, customerNotes: true, priceList: true,
      hours: { select: { weekday: true, startMinute: true, endMinute: true } },
      links: { where: { status: 'verified' }, select: { url: true, label: true, rating: true, ratingCount: true, checkedAt: true }, orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] },
      receptionist: { select: { published: true, publishedAt: true } },
    },
  });
  if (!business) throw unknown();
  // Menu businesses show their service menu (the same one service_menu answers with).
  const menu = MENU_KINDS.includes(business.kind) ? publicServices((await ctx.menus.state(slug)).menu) : [];
  return {
    proId: business.slug,
    name: business.name,
    kind: business.kind,
    city: business.city,
    state: business.state,
    phone: business.phone,
    website: business.website,
    customerNotes: business.customerNotes,
    prices: describePriceList(business.priceList).prices,
    hours: weekHours(business.hours),
    links: shownLinks(business.links, business.timeZone),
    menu,
    knowledge: publishedPage(business.receptionist, business.timeZone),
  };
}

export async function setCustomerNotesService(input: z.output<typeof setCustomerNotesInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  // Read and replace in one transaction so `previous` is exactly what was overwritten.
  return ctx.transaction(async (tx) => {
    const before = await tx.business.findUniqueOrThrow({ where: { id: businessId }, select: { customerNotes: true } });
    await tx.business.update({ where: { id: businessId }, data: { customerNotes: input.notes } });
    ctx.search.reloadAfterCommit(tx, 'catalog', businessId);
    return { customerNotes: input.notes, previous: before.customerNotes };
  });
}

export async function noteToOwnerService(input: z.output<typeof noteToOwnerInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const note = await ctx.prisma.ownerNote.create({ data: { businessId, text: input.note, clientName: ctx.clientName ?? null, createdAt: ctx.clock.date() } });
  return { saved: true, noteId: note.id, at: formatInstant(note.createdAt, await businessZone(ctx.prisma, businessId)) };
}
