/**
 * A realistic month for a demo pro (cleaner, plumber or HVAC pro), relative to the clock: past
 * jobs (most confirmed done, the latest awaiting confirmation, one no-show, one cancelled),
 * upcoming jobs booked through the service (some by assistants) and on the owner's own
 * schedule, a few blocks, and leads from several platforms at different stages with their costs.
 *
 * Deterministic for (seed, business, now). Days stay mostly open so customers' searches keep
 * finding starts: at most one job a day, part-day blocks late in the afternoon, and the whole
 * day off beyond a recurring series' 60 days.
 */
import { createHash } from 'node:crypto';
import { cleaningPriceListSchema, quoteCleaning, type CleaningPriceList, type CleanType } from '../pricing/engine.js';
import { DAY, HOUR, MINUTE, dayNumberToDate, isoWithOffset, zoneOffset } from '../core/time.js';
import { localSpan } from '../core/local-time.js';
import { ISSUES, quoteServiceCall } from '../pricing/service-call.js';

export interface MonthRng {
  float(): number;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export type DemoBooking = {
  id: string; businessId: string; kind: 'cleaning' | 'service_call'; status: 'confirmed' | 'cancelled' | 'done' | 'no_show';
  manageTokenHash: string; confirmTokenHash: string; priceCents: number; bedrooms: number | null; bathrooms: number | null; cleanType: string | null;
  addOns: string[]; pets: boolean; trade: string | null; issue: string | null; details: string | null; address: string; zip: string; notes: string | null;
  customerName: string; customerEmail: string | null; customerPhone: string | null; clientName: string | null;
  createdAt: Date; confirmedAt: Date; cancelledAt: Date | null;
};
export type DemoVisit = { id: string; bookingId: string; businessId: string; start: Date; end: Date; active: boolean };
export type DemoOwnJob = { bookingId: string; businessId: string; leadId: string | null };
export type DemoBlock = { id: string; businessId: string; start: Date; end: Date; label: string };
export type DemoLead = {
  id: string; businessId: string; platform: string; status: 'quoted' | 'booked' | 'lost'; zip: string; job: Record<string, unknown>;
  quoteCents: number; quoteMinutes: number; costCents: number; message: string | null; customerName: string | null; customerEmail: string | null;
  customerPhone: string | null; phoneKey: string | null; notes: string | null; quotedAt: Date; followUps: number; lastFollowUpAt: Date | null;
  repliedAt: Date | null; badReason: string | null; flaggedAt: Date | null; createdAt: Date; updatedAt: Date;
};
export type DemoEvent = { type: string; businessId: string; bookingId: string; clientName: string | null; data: { customerName: string; start: string }; at: Date };

export interface DemoMonth {
  bookings: DemoBooking[];
  bookingVisits: DemoVisit[];
  ownJobs: DemoOwnJob[];
  blocks: DemoBlock[];
  leads: DemoLead[];
  events: DemoEvent[];
}

export interface MonthBusiness {
  id: string;
  slug: string;
  kind: 'cleaning' | 'plumbing' | 'hvac';
  timeZone: string;
  priceList: unknown;
  hours: { weekday: number; startMinute: number; endMinute: number }[];
  zips: string[];
  city: string;
  state: string;
  /** Area code of the customers' (fictional) numbers. */
  customerAreaCode: string;
}

const FIRST = ['Alex', 'Jordan', 'Sam', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Avery', 'Jamie', 'Quinn', 'Dana', 'Robin', 'Elena', 'Marcus', 'Priya', 'Tomás', 'Grace', 'Omar', 'Lena', 'Victor'] as const;
const LAST = ['Rivera', 'Nguyen', 'Patel', 'Brooks', 'Kim', 'Lopez', 'Chen', 'Foster', 'Ortiz', 'Shah', 'Reyes', 'Hughes', 'Park', 'Novak', 'Silva', 'Baker'] as const;
const STREETS = ['Oak St', 'Maple Ave', 'Cedar Ln', 'Elm St', 'Park Blvd', 'Willow Way', 'Lakeview Dr', 'Sunset Ave', 'Hillside Rd', 'Pine St', 'Juniper Ct', 'Magnolia Ave'] as const;
const ASSISTANTS = ['ChatGPT', 'Claude', 'Gemini', 'Siri'] as const;
const NOTES = ['Gate code 4412.', 'Please park on the street.', 'The dog is friendly.', 'Key under the mat.', null, null, null] as const;
const DETAILS: Record<string, string> = {
  leak: 'Water dripping under the kitchen sink.',
  clog: 'Bathroom sink drains very slowly.',
  water_heater: 'No hot water since this morning.',
  toilet: 'Toilet keeps running.',
  fixture: 'Want a new kitchen faucet installed.',
  no_water: 'No water pressure upstairs.',
  no_cool: 'AC runs but blows warm air.',
  no_heat: 'Furnace will not turn on.',
  maintenance: 'Yearly tune-up before winter.',
  noise: 'Loud rattle from the outside unit.',
  thermostat: 'Thermostat screen is blank.',
  other: 'Not sure what is wrong; please take a look.',
};
const LEAD_MESSAGES = [
  'Hi! Looking for help this week if you have time.',
  'How soon could you come out?',
  'Do you bring your own supplies?',
  'Need this done before the weekend.',
  'Can you give me a price?',
] as const;
/** What each kind of pro pays per lead on each platform, cents [min, max]; social messages are free. */
const LEAD_COSTS: Record<'cleaning' | 'trade', [string, number, number][]> = {
  cleaning: [['thumbtack', 1200, 3500], ['yelp', 800, 2500], ['google', 1000, 3000], ['angi', 1500, 4000], ['nextdoor', 0, 0], ['facebook', 0, 0], ['instagram', 0, 0]],
  trade: [['angi', 2000, 6000], ['google', 2500, 7000], ['thumbtack', 1500, 4500], ['yelp', 1000, 3000], ['nextdoor', 0, 0]],
};
const BAD_REASONS = ['The phone number on the lead is disconnected.', 'Asked for a job we do not offer.', 'Duplicate of a lead sent the day before.'] as const;

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

interface Sized {
  kind: 'cleaning' | 'service_call';
  priceCents: number;
  minutes: number;
  columns: Pick<DemoBooking, 'bedrooms' | 'bathrooms' | 'cleanType' | 'addOns' | 'pets' | 'trade' | 'issue' | 'details'>;
  job: Record<string, unknown>;
}

function sizeJob(rng: MonthRng, b: MonthBusiness, list: CleaningPriceList | null): Sized {
  if (b.kind === 'cleaning' && list) {
    const cleanType: CleanType = rng.chance(0.75) ? 'standard' : 'deep';
    const bedrooms = rng.int(1, 3);
    const bathrooms = rng.int(2, 4) / 2;
    const offered = Object.keys(list.add_ons);
    const addOns = rng.chance(0.3) && offered.length ? [rng.pick(offered)] : [];
    const pets = rng.chance(0.3);
    const q = quoteCleaning(list, { bedrooms, bathrooms, clean_type: cleanType, add_ons: addOns, pets });
    if (!q.ok) throw new Error(`demo job not priceable at ${b.slug}: ${q.reason}`);
    return {
      kind: 'cleaning',
      priceCents: q.total_cents,
      minutes: q.duration_minutes,
      columns: { bedrooms, bathrooms, cleanType, addOns, pets, trade: null, issue: null, details: null },
      job: { bedrooms, bathrooms, clean_type: cleanType, add_ons: addOns, pets },
    };
  }
  const trade = b.kind === 'cleaning' ? 'plumbing' : b.kind;
  const issue = rng.pick(ISSUES[trade]);
  const q = quoteServiceCall(b.priceList, trade, issue);
  if (!q.ok) throw new Error(`demo service call not priceable at ${b.slug}: ${q.reason}`);
  return {
    kind: 'service_call',
    priceCents: q.fee_cents,
    minutes: q.window_minutes,
    columns: { bedrooms: null, bathrooms: null, cleanType: null, addOns: [], pets: false, trade, issue, details: DETAILS[issue]! },
    job: { trade, issue, details: DETAILS[issue]! },
  };
}

export function generateMonth(rng: MonthRng, b: MonthBusiness, now: number): DemoMonth {
  const out: DemoMonth = { bookings: [], bookingVisits: [], ownJobs: [], blocks: [], leads: [], events: [] };
  // Local calendar days as day numbers (plain arithmetic); instants through localSpan (DST-safe).
  const zone = b.timeZone;
  const today = Math.floor((now + zoneOffset(zone, now) * MINUTE) / DAY);
  const list = b.kind === 'cleaning' ? cleaningPriceListSchema.parse(b.priceList) : null;
  const hoursOf = (day: number) => b.hours.find((h) => h.weekday === (((day + 4) % 7) + 7) % 7);
  const span = (day: number, from: number, to: number) => localSpan(dayNumberToDate(day), from, to, zone)!;
  const hoursAgo = (h: number) => new Date(now - h * HOUR);
  let n = 0;
  const person = () => {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const line = String(100 + rng.int(0, 99)).padStart(4, '0');
    const phone = rng.pick([`(${b.customerAreaCode}) 555-${line}`, `${b.customerAreaCode}-555-${line}`, `+1${b.customerAreaCode}555${line}`]);
    return { name: `${first} ${last}`, email: `${first.toLowerCase()}.${last.toLowerCase()}@example.com`, phone, e164: `+1${b.customerAreaCode}555${line}` };
  };
  const address = () => {
    const zip = rng.pick(b.zips);
    return { address: `${rng.int(100, 9899)} ${rng.pick(STREETS)}, ${b.city} ${b.state} ${zip}`, zip };
  };

  /**
   * One job on a local day, at the start or the end of its hours and at most half of them, so the
   * rest of the day stays one open stretch for customers.
   */
  const placeJob = (day: number, sized: Sized, afterMinute = 0): { start: number; end: number } | null => {
    const h = hoursOf(day);
    if (!h || sized.minutes * 2 > h.endMinute - h.startMinute) return null;
    const latest = h.endMinute - sized.minutes;
    const earliest = Math.max(h.startMinute, afterMinute);
    if (latest < earliest) return null;
    const start = rng.chance(0.5) ? earliest : latest - (latest % 30);
    const at = span(day, start, start + 1).start;
    return { start: at, end: at + sized.minutes * MINUTE };
  };

  const addBooking = (
    day: number,
    f: { status: DemoBooking['status']; own: boolean; createdAt: Date; clientName?: string | null; leadId?: string | null; contact?: ReturnType<typeof person> },
    afterMinute = 0,
  ) => {
    const sized = sizeJob(rng, b, list);
    const slot = placeJob(day, sized, afterMinute);
    if (!slot) return null;
    const id = `bkg_${b.slug}_${++n}`;
    const who = f.contact ?? person();
    const where = address();
    // Own jobs keep what the owner typed; customers booking through the service gave an e-mail.
    const ownContact = rng.chance(0.5);
    out.bookings.push({
      id,
      businessId: b.id,
      kind: sized.kind,
      status: f.status,
      manageTokenHash: hash(`demo-manage:${id}`),
      confirmTokenHash: hash(`demo-confirm:${id}`),
      priceCents: sized.priceCents,
      ...sized.columns,
      ...where,
      notes: rng.pick(NOTES),
      customerName: who.name,
      customerEmail: f.own && ownContact ? null : who.email,
      customerPhone: f.own || rng.chance(0.6) ? who.phone : null,
      clientName: f.own ? null : (f.clientName ?? null),
      createdAt: f.createdAt,
      confirmedAt: new Date(f.createdAt.getTime() + (f.own ? 0 : 40 * 60_000)),
      cancelledAt: f.status === 'cancelled' ? new Date(f.createdAt.getTime() + 24 * 3_600_000) : null,
    });
    out.bookingVisits.push({ id: `vis_${id}`, bookingId: id, businessId: b.id, start: new Date(slot.start), end: new Date(slot.end), active: f.status !== 'cancelled' });
    if (f.own) out.ownJobs.push({ bookingId: id, businessId: b.id, leadId: f.leadId ?? null });
    return { id, slot, who };
  };

  // Past month: most days with hours have had a job.
  const past: { day: number; offset: number }[] = [];
  for (let d = 30; d >= 1; d--) {
    const day = today - d;
    if (hoursOf(day) && (rng.chance(0.3) || (d === 3 && past.length < 2))) past.push({ day, offset: d });
  }
  const noShowAt = past.length > 3 ? past.length - 3 - rng.int(0, Math.min(5, past.length - 4)) : -1;
  const cancelledAt = past.length > 6 ? rng.int(0, 2) : -1;
  past.forEach(({ day, offset }, i) => {
    // The last two days' jobs wait for the owner to confirm them done.
    const status = i === noShowAt ? 'no_show' : i === cancelledAt ? 'cancelled' : offset <= 2 ? 'confirmed' : 'done';
    const own = status !== 'no_show' && rng.chance(0.3);
    addBooking(day, { status, own, createdAt: new Date(span(day, 0, 1).start - rng.int(2, 9) * DAY + 15 * HOUR), clientName: rng.chance(0.5) ? rng.pick(ASSISTANTS) : null });
  });

  // From the day after tomorrow for three weeks, about one day in four: today and tomorrow stay
  // open for customers who need a cleaning soon.
  const upcoming: { id: string; own: boolean }[] = [];
  for (let d = 2; d <= 21; d++) {
    const day = today + d;
    // Every pro has at least one upcoming job within the next week.
    if (!rng.chance(0.25) && !(d >= 7 && upcoming.length === 0)) continue;
    const own = rng.chance(0.35);
    const createdHoursAgo = rng.int(2, 6 * 24);
    const clientName = rng.chance(0.6) ? rng.pick(ASSISTANTS) : null;
    const made = addBooking(day, { status: 'confirmed', own, createdAt: hoursAgo(createdHoursAgo), clientName });
    if (!made) continue;
    upcoming.push({ id: made.id, own });
    // New bookings of the last three days are the owner's unread notifications.
    if (!own && createdHoursAgo <= 72) {
      const start = isoWithOffset(made.slot.start, zone);
      out.events.push({ type: 'booking.created', businessId: b.id, bookingId: made.id, clientName, data: { customerName: made.who.name, start }, at: hoursAgo(createdHoursAgo) });
      out.events.push({ type: 'booking.confirmed', businessId: b.id, bookingId: made.id, clientName: null, data: { customerName: made.who.name, start }, at: new Date(hoursAgo(createdHoursAgo).getTime() + 40 * 60_000) });
    }
  }

  // Blocks: a late afternoon off this week and next, and a whole day off beyond the reach of a
  // recurring series (60 days), so weekly bookings still find their weekday free.
  const busyDays = new Set(out.bookingVisits.map((v) => Math.floor((v.start.getTime() + zoneOffset(zone, v.start.getTime()) * MINUTE) / DAY)));
  let blocks = 0;
  for (let d = 2; d <= 12 && blocks < 2; d += rng.int(2, 4)) {
    const day = today + d;
    const h = hoursOf(day);
    if (!h || busyDays.has(day) || h.endMinute - h.startMinute < 6 * 60) continue;
    const { start, end } = span(day, h.endMinute - 120, h.endMinute);
    out.blocks.push({ id: `blk_${b.slug}_${++blocks}`, businessId: b.id, start: new Date(start), end: new Date(end), label: rng.pick(['School pickup', 'Dentist', 'Supply run', 'Van service']) });
  }
  for (let d = 63; d <= 70; d++) {
    const day = today + d;
    if (!hoursOf(day)) continue;
    const { start, end } = span(day, 0, 1440);
    out.blocks.push({ id: `blk_${b.slug}_${++blocks}`, businessId: b.id, start: new Date(start), end: new Date(end), label: 'Day off' });
    break;
  }

  // Leads at every stage. Times sit whole hours away from now, so none falls due while a test runs.
  const costs = LEAD_COSTS[b.kind === 'cleaning' ? 'cleaning' : 'trade'];
  const stages: { hoursAgo: number; status: DemoLead['status']; followUps: number; followUpHoursAgo?: number; replied?: boolean; bad?: boolean; direct?: boolean }[] = [
    { hoursAgo: 26, status: 'quoted', followUps: 0 },
    { hoursAgo: 4 * 24, status: 'quoted', followUps: 1, followUpHoursAgo: 53 },
    { hoursAgo: 6 * 24, status: 'booked', followUps: 1, followUpHoursAgo: 5 * 24 },
    { hoursAgo: 12 * 24, status: 'lost', followUps: 2, followUpHoursAgo: 8 * 24 },
    { hoursAgo: 9 * 24, status: 'quoted', followUps: 0, bad: true },
    { hoursAgo: 3 * 24, status: 'quoted', followUps: 0, replied: true, direct: true },
  ];
  const ownUpcoming = upcoming.filter((u) => u.own);
  stages.forEach((s, i) => {
    const id = `lead_${b.slug}_${i + 1}`;
    const [platform, lo, hi] = s.direct ? (['direct', 0, 0] as const) : s.bad ? costs.find((c) => c[2] > 0)! : rng.pick(costs);
    const sized = sizeJob(rng, b, list);
    const who = person();
    const quotedAt = hoursAgo(s.hoursAgo);
    out.leads.push({
      id,
      businessId: b.id,
      platform,
      status: s.status,
      zip: rng.pick(b.zips),
      job: sized.job,
      quoteCents: sized.priceCents,
      quoteMinutes: sized.minutes,
      costCents: lo === hi ? lo : Math.round(rng.int(lo, hi) / 50) * 50,
      message: rng.pick(LEAD_MESSAGES),
      customerName: s.direct ? who.name : null,
      customerEmail: null,
      customerPhone: s.direct ? who.phone : null,
      phoneKey: s.direct ? who.e164 : null,
      notes: s.status === 'lost' ? 'Went with someone cheaper.' : null,
      quotedAt,
      followUps: s.followUps,
      lastFollowUpAt: s.followUpHoursAgo ? hoursAgo(s.followUpHoursAgo) : null,
      repliedAt: s.replied ? hoursAgo(s.hoursAgo - 3) : null,
      badReason: s.bad ? rng.pick(BAD_REASONS) : null,
      flaggedAt: s.bad ? hoursAgo(s.hoursAgo - 20) : null,
      createdAt: quotedAt,
      updatedAt: quotedAt,
    });
    // A booked lead became one of the upcoming own jobs.
    const job = s.status === 'booked' ? ownUpcoming.shift() : undefined;
    if (job) out.ownJobs.find((o) => o.bookingId === job.id)!.leadId = id;
  });
  return out;
}
