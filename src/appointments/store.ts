/**
 * Appointments as stored, and the reads and lock every appointment write shares.
 *
 * Writes to one business's appointments take turns under its lock and re-read what they change
 * inside it; the exclusion constraint on appointments that hold time has the last word either
 * way (a violation is a time_unavailable, never a 500).
 */
import type { Services } from '../context.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Tx } from '../db/transaction.js';
import { isoWithOffset } from '../core/time.js';
import type { HeldAppointment } from './schedule.js';
import { usd } from '../core/money.js';

type Db = PrismaClient | Tx;

/** A burst of bookings for one business queues for its lock: longer waits than Prisma's defaults. */
export const QUEUED = { maxWait: 15_000, timeout: 30_000 } as const;

export async function lockAppointments(tx: Tx, businessId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`appointments:${businessId}`}))`;
}

export const appointmentSelect = {
  id: true,
  businessId: true,
  conversationId: true,
  serviceId: true,
  serviceName: true,
  priceCents: true,
  durationMinutes: true,
  payment: true,
  status: true,
  start: true,
  end: true,
  holdsTime: true,
  holdUntil: true,
  customerName: true,
  clientName: true,
  paymentAccountId: true,
  checkoutSessionId: true,
  checkoutUrl: true,
  paymentIntentId: true,
  paidCents: true,
  refundId: true,
  refundRound: true,
  refundAttempts: true,
  createdAt: true,
  cancelledBy: true,
  // One chain of relations (not siblings), so a transaction's connection runs one query at a time.
  conversation: { select: { customerEmail: true, business: { select: { id: true, slug: true, name: true, email: true, timeZone: true } } } },
} satisfies Prisma.AppointmentSelect;

type Row = Prisma.AppointmentGetPayload<{ select: typeof appointmentSelect }>;

/** An appointment with its business and its customer's e-mail (from the conversation) at hand. */
export type StoredAppointment = Omit<Row, 'conversation'> & { business: Row['conversation']['business']; customerEmail: string | null };

const stored = ({ conversation, ...a }: Row): StoredAppointment => ({ ...a, business: conversation.business, customerEmail: conversation.customerEmail });

export async function findAppointment(db: Db, where: Prisma.AppointmentWhereInput): Promise<StoredAppointment | null> {
  const row = await db.appointment.findFirst({ where, select: appointmentSelect });
  return row && stored(row);
}

/** Appointments of a business that may take time in [from, to): whether they still do is the schedule's call. */
export async function heldAppointments(db: Db, businessId: string, from: number, to: number): Promise<HeldAppointment[]> {
  const rows = await db.appointment.findMany({
    where: { businessId, holdsTime: true, start: { lt: new Date(to) }, end: { gt: new Date(from) } },
    select: { start: true, end: true, status: true, holdsTime: true, holdUntil: true },
  });
  return rows.map((r) => ({ start: r.start.getTime(), end: r.end.getTime(), status: r.status, holdsTime: r.holdsTime, holdUntil: r.holdUntil?.getTime() ?? null }));
}

export const startIso = (a: Pick<StoredAppointment, 'start' | 'business'>) => isoWithOffset(a.start.getTime(), a.business.timeZone);

/** Who is acting: a request (with its assistant's name) or the service itself (webhooks, the sweep). */
export type Actor = Services & { clientName?: string };
