/**
 * The monthly pipeline report (pipeline, and my_business's this-month summary): leads and spend
 * by platform, jobs booked of every kind (cleanings, service calls, own jobs, menu visits,
 * appointments) with their value, cost per booked job, possible lead credits and direct customers.
 * Two aggregate queries in the database, whatever the number of leads, bookings, visits and
 * appointments.
 *
 * Spend counts what platforms charged for leads and the service's $5 fee for each booking made
 * through it that stands (confirmed or done: a no-show's fee is waived, cancelled and unconfirmed
 * bookings carry none, own jobs never do).
 */
import { DateTime } from 'luxon';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { SERVICE_FEE_CENTS } from '../owners/schedule.js';
import { dollars } from '../core/money.js';

/** The row bookings made through the service get among the platforms. */
export const SERVICE_PLATFORM = 'porchlight';

export interface PlatformLine {
  platform: string;
  leads: number;
  spend: number;
  booked: number;
  costPerBookedJob: number | null;
  /** Leads whose cost was logged as unknown: not in spend. */
  unknownCost: number;
}

/** The kinds of work on a business's calendar, as schedule.jobs names them. */
export const WORK_KINDS = ['cleaning', 'service_call', 'own_job', 'visit', 'appointment'] as const;
export type WorkKind = (typeof WORK_KINDS)[number];

export interface KindLine {
  kind: WorkKind;
  /** Made this month through the service or by the owner, whatever became of them. */
  requested: number;
  booked: number;
  cancelled: number;
  /** USD of the booked ones that stand. */
  revenue: number;
}

export interface PipelineReport {
  month: string;
  platforms: PlatformLine[];
  jobsBooked: number;
  directCustomers: number;
  totalSpend: number;
  serviceFees: number;
  possibleCredits: { leads: number; amount: number; leadIds: string[] };
  bookings: { pending: number; confirmed: number; done: number; cancelled: number; noShow: number; lapsed: number };
  bookedValue: number;
  kinds: KindLine[];
}

interface LeadAgg {
  platform: string;
  leads: number;
  spend_cents: number;
  unknown_cost: number;
  booked: number;
  bad: number;
  bad_cents: number;
  bad_ids: string[];
}

interface BookingAgg {
  kind: WorkKind;
  own: boolean;
  lead_platform: string | null;
  status: string;
  n: number;
  value_cents: number;
}

/** Booked work that stands: a no-show was booked (the time was held); visits and appointments stand once confirmed. */
const STANDING = new Set(['confirmed', 'done', 'no_show']);
/** Standing work whose price counts as revenue. */
const EARNING = new Set(['confirmed', 'done']);
const CANCELLED = new Set(['cancelled', 'refund_pending', 'refunded', 'refund_failed']);
/** Cleanings and service calls: Booking rows, which carry the service fee and the per-status counts. */
const isBooking = (b: BookingAgg) => b.kind === 'cleaning' || b.kind === 'service_call' || b.kind === 'own_job';

/** The business-local month "YYYY-MM" (default: the current one) as instants [from, to). */
export function monthSpan(month: string | undefined, zone: string, now: number): { month: string; from: Date; to: Date } {
  const start = month ? DateTime.fromFormat(month, 'yyyy-MM', { zone }) : DateTime.fromMillis(now, { zone }).startOf('month');
  if (!start.isValid) throw invalid('month must be YYYY-MM, e.g. 2026-11.');
  return { month: start.toFormat('yyyy-MM'), from: start.toJSDate(), to: start.plus({ months: 1 }).toJSDate() };
}

export async function pipelineReport(ctx: Context, businessId: string, zone: string, month?: string): Promise<PipelineReport> {
  const span = monthSpan(month, zone, ctx.clock.now());
  const [leads, bookings] = await Promise.all([
    ctx.prisma.$queryRaw<LeadAgg[]>`
      SELECT "platform",
        count(*)::int AS leads,
        COALESCE(sum("costCents"), 0)::int AS spend_cents,
        (count(*) FILTER (WHERE "costCents" IS NULL))::int AS unknown_cost,
        (count(*) FILTER (WHERE "status" = 'booked'))::int AS booked,
        (count(*) FILTER (WHERE "flaggedAt" IS NOT NULL AND "costCents" > 0))::int AS bad,
        COALESCE(sum("costCents") FILTER (WHERE "flaggedAt" IS NOT NULL AND "costCents" > 0), 0)::int AS bad_cents,
        COALESCE(array_agg("id" ORDER BY "createdAt") FILTER (WHERE "flaggedAt" IS NOT NULL AND "costCents" > 0), '{}') AS bad_ids
      FROM "Lead"
      WHERE "businessId" = ${businessId} AND "createdAt" >= ${span.from} AND "createdAt" < ${span.to}
      GROUP BY "platform"`,
    ctx.prisma.$queryRaw<BookingAgg[]>`
      SELECT CASE WHEN o."bookingId" IS NOT NULL THEN 'own_job' ELSE b."kind"::text END AS kind,
        (o."bookingId" IS NOT NULL) AS own, l."platform" AS lead_platform, b."status"::text AS status,
        count(*)::int AS n, COALESCE(sum(b."priceCents"), 0)::int AS value_cents
      FROM "Booking" b
      LEFT JOIN "OwnJob" o ON o."bookingId" = b."id"
      LEFT JOIN "Lead" l ON l."id" = o."leadId"
      WHERE b."businessId" = ${businessId} AND b."createdAt" >= ${span.from} AND b."createdAt" < ${span.to}
      GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT 'visit', false, NULL, v."status"::text, count(*)::int, COALESCE(sum(v."priceCents"), 0)::int
      FROM "Visit" v
      WHERE v."businessId" = ${businessId} AND v."createdAt" >= ${span.from} AND v."createdAt" < ${span.to}
      GROUP BY 4
      UNION ALL
      SELECT 'appointment', false, NULL, a."status"::text, count(*)::int, COALESCE(sum(a."priceCents"), 0)::int
      FROM "Appointment" a
      WHERE a."businessId" = ${businessId} AND a."createdAt" >= ${span.from} AND a."createdAt" < ${span.to}
      GROUP BY 4`,
  ]);
  const count = (f: (b: BookingAgg) => boolean) => bookings.filter(f).reduce((s, b) => s + b.n, 0);
  const service = (b: BookingAgg) => !b.own;
  // The $5 fee is charged on cleanings and service calls booked through the service.
  const feeCents = count((b) => service(b) && isBooking(b) && EARNING.has(b.status)) * SERVICE_FEE_CENTS;
  const serviceBooked = count((b) => service(b) && STANDING.has(b.status));

  const platforms: PlatformLine[] = leads.map((l) => ({
    platform: l.platform,
    leads: l.leads,
    spend: dollars(l.spend_cents),
    booked: l.booked,
    costPerBookedJob: l.booked > 0 ? dollars(l.spend_cents / l.booked) : null,
    unknownCost: l.unknown_cost,
  }));
  const serviceRequests = count(service);
  if (serviceRequests > 0) {
    platforms.push({
      platform: SERVICE_PLATFORM,
      leads: serviceRequests,
      spend: dollars(feeCents),
      booked: serviceBooked,
      costPerBookedJob: serviceBooked > 0 ? dollars(feeCents / serviceBooked) : null,
      unknownCost: 0,
    });
  }
  platforms.sort((a, b) => b.spend - a.spend || b.leads - a.leads || a.platform.localeCompare(b.platform));
  const status = (s: string) => count((b) => isBooking(b) && b.status === s);
  const valueOf = (f: (b: BookingAgg) => boolean) => bookings.filter((b) => f(b) && EARNING.has(b.status)).reduce((s, b) => s + b.value_cents, 0);
  return {
    month: span.month,
    platforms,
    jobsBooked: count((b) => STANDING.has(b.status)),
    directCustomers: count((b) => b.own && STANDING.has(b.status) && (b.lead_platform === null || b.lead_platform === 'direct')),
    totalSpend: dollars(leads.reduce((s, l) => s + l.spend_cents, 0) + feeCents),
    serviceFees: dollars(feeCents),
    possibleCredits: {
      leads: leads.reduce((s, l) => s + l.bad, 0),
      amount: dollars(leads.reduce((s, l) => s + l.bad_cents, 0)),
      leadIds: leads.flatMap((l) => l.bad_ids),
    },
    bookings: { pending: status('pending'), confirmed: status('confirmed'), done: status('done'), cancelled: status('cancelled'), noShow: status('no_show'), lapsed: status('lapsed') },
    bookedValue: dollars(valueOf(() => true)),
    kinds: WORK_KINDS.map((kind) => ({
      kind,
      requested: count((b) => b.kind === kind),
      booked: count((b) => b.kind === kind && STANDING.has(b.status)),
      cancelled: count((b) => b.kind === kind && CANCELLED.has(b.status)),
      revenue: dollars(valueOf((b) => b.kind === kind)),
    })),
  };
}
